// SPDX-License-Identifier: MIT
// The image's /etc/asound.conf parses with the static libasound and defines the PCMs sottod opens.
#include <alsa/asoundlib.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

namespace {

const std::string kAsoundConf = std::string(SOTTO_SOURCE_DIR) + "/rootfs-overlay/etc/asound.conf";

struct ConfigDeleter {
  void operator()(snd_config_t* c) const { snd_config_delete(c); }
};

// Loads `path` into a fresh tree; the error code (0 on success).
int loadInto(snd_config_t* top, const std::string& path) {
  snd_input_t* in = nullptr;
  if (int err = snd_input_stdio_open(&in, path.c_str(), "r"); err < 0) return err;
  int err = snd_config_load(top, in);
  snd_input_close(in);
  return err;
}

}  // namespace

TEST(AsoundConf, ParsesAndDefinesTheSpeakerPcms) {
  snd_config_t* raw = nullptr;
  ASSERT_EQ(snd_config_top(&raw), 0);
  std::unique_ptr<snd_config_t, ConfigDeleter> top(raw);
  ASSERT_EQ(loadInto(top.get(), kAsoundConf), 0) << kAsoundConf;
  for (const char* key : {"pcm.default", "pcm.sotto_mic", "pcm.sotto_speaker", "ctl.default",
                          "defaults.pcm.card"}) {
    snd_config_t* node = nullptr;
    EXPECT_EQ(snd_config_search(top.get(), key, &node), 0) << key;
  }
  auto text = [&](const char* key) -> std::string {
    snd_config_t* node = nullptr;
    const char* value = nullptr;
    if (snd_config_search(top.get(), key, &node) < 0 || snd_config_get_string(node, &value) < 0) return "<missing>";
    return value;
  };
  auto integer = [&](const char* key) -> long {
    snd_config_t* node = nullptr;
    long value = -1;
    if (snd_config_search(top.get(), key, &node) < 0 || snd_config_get_integer(node, &value) < 0) return -1;
    return value;
  };
  // sottod opens "default" in both directions: converting plugs over the shared (mixing/snooping) card.
  EXPECT_EQ(text("pcm.default.type"), "asym");
  EXPECT_EQ(text("pcm.default.playback.pcm.type"), "plug");
  EXPECT_EQ(text("pcm.default.playback.pcm.slave.pcm"), "sotto_speaker");
  EXPECT_EQ(text("pcm.default.capture.pcm.type"), "plug");
  EXPECT_EQ(text("pcm.default.capture.pcm.slave.pcm"), "sotto_mic");
  EXPECT_EQ(text("pcm.sotto_speaker.type"), "dmix");
  EXPECT_EQ(text("pcm.sotto_mic.type"), "dsnoop");
  EXPECT_EQ(text("pcm.sotto_speaker.slave.pcm"), "hw:0,0");
  // dmix and dsnoop share memory by key: the two must not collide.
  EXPECT_GT(integer("pcm.sotto_speaker.ipc_key"), 0);
  EXPECT_NE(integer("pcm.sotto_speaker.ipc_key"), integer("pcm.sotto_mic.ipc_key"));
}

// A broken file is reported by the same call, so the test above can fail.
TEST(AsoundConf, ASyntaxErrorIsReported) {
  char tmpl[] = "/tmp/sotto-asound-XXXXXX";
  int fd = mkstemp(tmpl);
  ASSERT_GE(fd, 0);
  const char bad[] = "pcm.default {\n  type asym\n  playback.pcm \"dmix\"\n";  // unterminated
  ASSERT_EQ(write(fd, bad, sizeof bad - 1), static_cast<ssize_t>(sizeof bad - 1));
  close(fd);
  snd_config_t* raw = nullptr;
  ASSERT_EQ(snd_config_top(&raw), 0);
  std::unique_ptr<snd_config_t, ConfigDeleter> top(raw);
  EXPECT_LT(loadInto(top.get(), tmpl), 0);
  std::remove(tmpl);
}
