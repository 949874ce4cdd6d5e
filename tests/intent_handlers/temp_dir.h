// SPDX-License-Identifier: MIT
// A scratch directory per test, removed with everything in it.
#pragma once

#include <string>

namespace sotto::test {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string readFile(const std::string& path);
void writeFile(const std::string& path, const std::string& bytes);
bool fileExists(const std::string& path);
// Names in dir (without . and ..), sorted.
std::string listDir(const std::string& dir);

}  // namespace sotto::test
