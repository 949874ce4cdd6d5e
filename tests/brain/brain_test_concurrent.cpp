// SPDX-License-Identifier: MIT
// Nothing is lost when processes run at once (issue 36): 20 `sotto ask` and 20 `sotto intent --answer` on one state
// directory at the same moment, and the count of what each state file kept. Every state file is a read-modify-write
// under its lock (hal::FileLock): the cloud cost caps, the answer cache and the timers. Before: 20 concurrent asks
// with a cap of 10 all reached the cloud, 60 requests were recorded as 25, 10 of 60 cached answers survived, and 6
// of 20 timers were saved.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "engine/cache/sealed_file.h"
#include "engine/intents/state_file.h"
#include "engine/router/cost_caps_file.h"
#include "sotto/hal/keystore.h"
#include "tests/app/child.h"
#include "tests/brain/brain_test_peer.h"
#include "tests/brain/brain_test_util.h"

extern char** environ;

namespace sotto::answer::test {
namespace {

constexpr int kProcesses = 20;

// Questions no intent answers and no personal-data rule touches, one per process and round.
const char* const kTopics[] = {
    "volcanoes", "glaciers", "comets",    "tides",     "rainbows", "deserts",  "coral",     "lightning",
    "honey",     "bamboo",   "owls",      "whales",    "penguins", "tornados", "fossils",   "magnets",
    "pyramids",  "caves",    "geysers",   "auroras",   "bees",     "ferns",    "crickets",  "meteors",
    "harbours",  "lighthouses", "bridges", "tunnels",  "castles",  "windmills", "canals",   "orchards",
    "puffins",   "otters",   "badgers",   "beavers",   "walruses", "lobsters", "oysters",   "squid",
    "pebbles",   "dunes",    "marshes",   "fjords",    "icebergs", "lagoons",  "prairies",  "savannas",
    "kettles",   "lanterns", "compasses", "telescopes", "sundials", "abacuses", "violins",  "trumpets",
    "kites",     "sailboats", "gliders",  "balloons"};
static_assert(std::size(kTopics) >= 3 * kProcesses);

std::string question(int i) { return std::string("tell me something about ") + kTopics[i]; }

// Starts every command at once (posix_spawn: nothing runs between fork and exec), each with its own output file
// and, when given, its stdin from a file; returns the exit statuses.
std::vector<int> runAtOnce(const std::vector<std::vector<std::string>>& commands, const std::string& dir,
                           const std::vector<std::string>& stdinFiles = {}) {
  std::vector<pid_t> pids;
  for (std::size_t k = 0; k < commands.size(); ++k) {
    std::vector<std::string> argv = sotto::test::commandFor(commands[k][0], {commands[k].begin() + 1, commands[k].end()});
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    const std::string out = dir + "/out-" + std::to_string(k) + ".txt";
    posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    if (k < stdinFiles.size()) posix_spawn_file_actions_addopen(&fa, 0, stdinFiles[k].c_str(), O_RDONLY, 0);
    pid_t pid = -1;
    EXPECT_EQ(posix_spawn(&pid, cargv[0], &fa, nullptr, cargv.data(), environ), 0) << cargv[0];
    posix_spawn_file_actions_destroy(&fa);
    pids.push_back(pid);
  }
  std::vector<int> rcs;
  for (pid_t pid : pids) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    rcs.push_back(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
  }
  return rcs;
}

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A loopback cloud that answers every question at once with a whole answer (finish_reason "stop").
struct QuickCloud : Peer {
  QuickCloud() : Peer("", "Here is one thing worth knowing about that.") {}
};

std::vector<std::string> askCommand(const std::string& config, const std::string& state, const std::string& url,
                                    const std::string& text) {
  return {SOTTO_CLI_PATH, "ask", "--json", "--config", config, "--state-dir", state, "--catalogue",
          sourcePath("config/intents.xml"), "--model", "", "--cloud", url + "/v1", text};
}

std::string writeConfig(const std::string& dir, int capPerHour) {
  const std::string path = dir + "/sotto.xml";
  std::ofstream(path) << "<sotto version=\"1\"><router cloud-max-per-hour=\"" << capPerHour
                      << "\" cloud-max-per-day=\"" << capPerHour << "\"/></sotto>\n";
  return path;
}

std::size_t countedRequests(const std::string& state) {
  auto times = router::decodeCostCaps(readAll(state + "/" + router::kCostCapsFileName));
  EXPECT_TRUE(times.ok()) << (times.ok() ? "" : times.error().message);
  return times.ok() ? times->size() : 0;
}

TEST(Concurrent, TwentyAsksAtOnceNeverPassTheCap) {
  QuickCloud cloud;
  ASSERT_TRUE(cloud.server);
  ScratchDir dir;
  const std::string state = dir.path() + "/state";
  const std::string config = writeConfig(dir.path(), 10);
  const std::size_t before = cloud.server->receivedBodies().size();
  std::vector<std::vector<std::string>> cmds;
  for (int i = 0; i < kProcesses; ++i) cmds.push_back(askCommand(config, state, cloud.url(), question(i)));
  const std::vector<int> rcs = runAtOnce(cmds, dir.path());
  int escalated = 0;
  for (int i = 0; i < kProcesses; ++i) {
    const std::string out = readAll(dir.path() + "/out-" + std::to_string(i) + ".txt");
    EXPECT_EQ(rcs[i], 0) << out;
    escalated += out.find("\"escalated\":true") != std::string::npos ? 1 : 0;
  }
  const std::size_t reached = cloud.server->receivedBodies().size() - before;
  std::printf("[ figure ] %d concurrent asks, cap 10: %zu reached the cloud, %d said they escalated, file counts %zu\n",
              kProcesses, reached, escalated, countedRequests(state));
  EXPECT_EQ(reached, 10u);
  EXPECT_EQ(escalated, 10);
  EXPECT_EQ(countedRequests(state), 10u);
}

TEST(Concurrent, SixtyAsksAreAllCountedAndAllCached) {
  QuickCloud cloud;
  ASSERT_TRUE(cloud.server);
  ScratchDir dir;
  const std::string state = dir.path() + "/state";
  const std::string config = writeConfig(dir.path(), 1000);
  const std::size_t before = cloud.server->receivedBodies().size();
  for (int round = 0; round < 3; ++round) {
    std::vector<std::vector<std::string>> cmds;
    for (int i = 0; i < kProcesses; ++i) {
      cmds.push_back(askCommand(config, state, cloud.url(), question(round * kProcesses + i)));
    }
    for (int rc : runAtOnce(cmds, dir.path())) EXPECT_EQ(rc, 0);
  }
  const std::size_t reached = cloud.server->receivedBodies().size() - before;
  EXPECT_EQ(reached, 3u * kProcesses);
  // Every request counted against the caps ...
  EXPECT_EQ(countedRequests(state), 3u * kProcesses);
  // ... and every answer kept in the (encrypted) cache.
  hal::KeystoreSpec ks;
  ks.stateDir = state;
  ks.createIfMissing = false;
  auto keystore = hal::KeystoreRegistry::instance().open(ks);
  ASSERT_TRUE(keystore.ok()) << keystore.error().message;
  auto key = (*keystore)->deriveKey("cache");
  ASSERT_TRUE(key.ok());
  auto plain = cache::readSealedFile(state + "/answers.cache", key->bytes());
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  ASSERT_GE(plain->size(), 4u);
  const std::uint32_t entries = (*plain)[0] | (*plain)[1] << 8 | (*plain)[2] << 16 | (*plain)[3] << 24;
  const std::string text(plain->begin(), plain->end());
  int kept = 0;
  for (int i = 0; i < 3 * kProcesses; ++i) kept += text.find(kTopics[i]) != std::string::npos ? 1 : 0;
  std::printf("[ figure ] 3 rounds of %d concurrent asks: %zu reached the cloud, %zu counted, %d of %d answers "
              "cached (%u entries)\n",
              kProcesses, reached, countedRequests(state), kept, 3 * kProcesses, entries);
  EXPECT_EQ(kept, 3 * kProcesses);
  // A later ask of one of them is answered from the cache, whichever process stored it.
  std::string out;
  const std::vector<std::string> again = askCommand(config, state, cloud.url(), question(7));
  ASSERT_EQ(sotto::test::runCapture(again[0], {again.begin() + 1, again.end()}, out), 0) << out;
  EXPECT_NE(out.find("\"route\":\"cache\""), std::string::npos) << out;
}

TEST(Concurrent, TwentyTimersAtOnceAreAllKeptOrHonestlyRefused) {
  ScratchDir dir;
  const std::string state = dir.path() + "/state";
  std::vector<std::vector<std::string>> cmds;
  std::vector<std::string> inputs;
  for (int i = 0; i < kProcesses; ++i) {
    const std::string in = dir.path() + "/in-" + std::to_string(i) + ".txt";
    std::ofstream(in) << "set a timer for " << (i + 2) << " minutes\n";
    inputs.push_back(in);
    cmds.push_back({SOTTO_CLI_PATH, "intent", "--json", "--answer", "--state-dir", state, "--catalogue",
                    sourcePath("config/intents.xml")});
  }
  const std::vector<int> rcs = runAtOnce(cmds, dir.path(), inputs);
  int set = 0, full = 0, notSaved = 0;
  for (int i = 0; i < kProcesses; ++i) {
    const std::string out = readAll(dir.path() + "/out-" + std::to_string(i) + ".txt");
    EXPECT_EQ(rcs[i], 0) << out;
    set += out.find("Timer set for") != std::string::npos ? 1 : 0;
    full += out.find("You already have sixteen timers") != std::string::npos ? 1 : 0;
    notSaved += out.find("couldn't save") != std::string::npos || out.find("not saved") != std::string::npos ? 1 : 0;
  }
  intents::StateLoad l = intents::loadReminderStateFile(state, 0);
  EXPECT_FALSE(l.corrupt);
  EXPECT_TRUE(l.warnings.empty()) << l.warnings.front();
  std::printf("[ figure ] %d concurrent timers (at most 16): %d said set, %d said the limit, %d not saved; %zu in "
              "the file\n", kProcesses, set, full, notSaved, l.state.timers.size());
  EXPECT_EQ(notSaved, 0);
  EXPECT_EQ(set, 16);
  EXPECT_EQ(full, kProcesses - 16);
  EXPECT_EQ(l.state.timers.size(), 16u);  // every timer a process said it set is in the file
  std::set<std::uint32_t> ids;
  for (const intents::Timer& t : l.state.timers) ids.insert(t.id);
  EXPECT_EQ(ids.size(), l.state.timers.size()) << "ids are unique";
}

}  // namespace
}  // namespace sotto::answer::test
