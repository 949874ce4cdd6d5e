// SPDX-License-Identifier: MIT
// pcaudiolib's entry points for the static espeak-ng: Sotto never lets espeak-ng play audio itself.
//
// Debian's libespeak-ng.a calls pcaudiolib, and libpcaudio.a needs PulseAudio's libpulse-simple, of which Debian
// ships no static archive: a static link with the real pcaudiolib is impossible. espeak-ng only opens an audio
// device in its ENOUTPUT_MODE_SPEAK_AUDIO mode; we initialize it in ENOUTPUT_MODE_SYNCHRONOUS (audio comes back
// through the synthesis callback and goes out through the audio HAL), so these are never reached. Should a future
// change call them, they fail cleanly instead of playing anything.
#include <cstddef>
#include <cstdint>

extern "C" {

struct audio_object;

struct audio_object* create_audio_device_object(const char* device, const char* application_name,
                                                const char* description) {
  (void)device;
  (void)application_name;
  (void)description;
  return nullptr;  // espeak-ng reports "no audio device" when asked to play itself
}

int audio_object_open(struct audio_object* object, int format, uint32_t rate, uint8_t channels) {
  (void)object;
  (void)format;
  (void)rate;
  (void)channels;
  return -1;
}

void audio_object_close(struct audio_object* object) { (void)object; }
void audio_object_destroy(struct audio_object* object) { (void)object; }

int audio_object_write(struct audio_object* object, const void* data, size_t bytes) {
  (void)object;
  (void)data;
  (void)bytes;
  return -1;
}

int audio_object_drain(struct audio_object* object) {
  (void)object;
  return 0;
}

int audio_object_flush(struct audio_object* object) {
  (void)object;
  return 0;
}

const char* audio_object_strerror(struct audio_object* object, int error) {
  (void)object;
  (void)error;
  return "espeak-ng's own audio output is not part of Sotto (audio goes through the audio HAL)";
}

}  // extern "C"
