// SPDX-License-Identifier: MIT
// THE settings table: every setting with its default, unit, range and description, and the rules between them.
// To add a setting: add a Config member (config.h) and one entry below; the parser, toXml, overrides, the
// reference (regenerate config/settings-reference.md) and the tests pick it up from here.
#include <algorithm>
#include <array>
#include <cassert>
#include <limits>

#include "app/config/settings.h"
#include "app/config/value_codec.h"

namespace sotto::config {
namespace {

enum class Empty { rejected, allowed };

// One factory per type: each takes the field type its codec stores, so pairing a type with a member of another
// C++ type does not compile.
constexpr Setting textSetting(std::string_view path, std::string_view def, uint32_t maxLength, Empty empty,
                              FieldRef<std::string> field, std::string_view description) {
  return {path, ValueType::text, def, "", 0, 0, {}, empty == Empty::allowed, maxLength, description, field};
}
constexpr Setting nameSetting(std::string_view path, std::string_view def, FieldRef<std::string> field,
                              std::string_view description) {
  return {path, ValueType::name, def, "", 0, 0, {}, false, 0, description, field};
}
constexpr Setting pathSetting(std::string_view path, std::string_view def, Empty empty, FieldRef<std::string> field,
                              std::string_view description) {
  return {path, ValueType::path, def, "", 0, 0, {}, empty == Empty::allowed, 4095, description, field};
}
constexpr Setting urlSetting(std::string_view path, FieldRef<std::string> field, std::string_view description) {
  return {path, ValueType::url, "", "", 0, 0, {}, true, 2048, description, field};
}
constexpr Setting boolSetting(std::string_view path, std::string_view def, FieldRef<bool> field,
                              std::string_view description) {
  return {path, ValueType::boolean, def, "", 0, 0, {}, false, 0, description, field};
}
constexpr Setting unsignedSetting(std::string_view path, std::string_view def, std::string_view unit, int64_t min,
                                  int64_t max, FieldRef<uint32_t> field, std::string_view description) {
  return {path, ValueType::unsignedInt, def, unit, min, max, {}, false, 0, description, field};
}
constexpr Setting signedSetting(std::string_view path, std::string_view def, std::string_view unit, int64_t min,
                                int64_t max, FieldRef<int> field, std::string_view description) {
  return {path, ValueType::signedInt, def, unit, min, max, {}, false, 0, description, field};
}
constexpr Setting fractionSetting(std::string_view path, std::string_view def, FieldRef<float> field,
                                  std::string_view description) {
  return {path, ValueType::fraction, def, "", 0, 1, {}, false, 0, description, field};
}
constexpr Setting choiceSetting(std::string_view path, std::string_view def, std::span<const std::string_view> choices,
                                FieldRef<std::string> field, std::string_view description) {
  return {path, ValueType::choice, def, "", 0, 0, choices, false, 0, description, field};
}
constexpr Setting choiceSetting(std::string_view path, std::string_view def, std::span<const std::string_view> choices,
                                FieldRef<privacy::PrivacyMode> field, std::string_view description) {
  return {path, ValueType::choice, def, "", 0, 0, choices, false, 0, description, field};
}
constexpr Setting cpuListSetting(std::string_view path, FieldRef<std::vector<int>> field,
                                 std::string_view description) {
  return {path, ValueType::cpuList, "", "", 0, 0, {}, true, 0, description, field};
}

// The names sotto::privacy::parsePiiPolicy accepts.
constexpr std::array<std::string_view, 3> kPiiPolicies{"local-only", "redact", "allow"};
// The names sotto::log::parseLevel accepts.
constexpr std::array<std::string_view, 5> kLogLevels{"error", "warning", "notice", "info", "debug"};
// The names engine/speech/tts.h's createTts knows (a build without espeak-ng says so when it is chosen).
constexpr std::array<std::string_view, 2> kTtsEngines{"flite", "espeak-ng"};

// The field accessors: `-> auto&` makes each lambda return a reference to exactly the member's type.
#define SOTTO_FIELD(member) [](Config& c) -> auto& { return c.member; }

constexpr auto kSettings = std::to_array<Setting>({
    nameSetting("audio.capture.backend", "null", SOTTO_FIELD(capture.backend),
                "Audio backend that records the microphone, by registered name (alsa, wav, null)."),
    textSetting("audio.capture.device", "default", 255, Empty::rejected, SOTTO_FIELD(capture.device),
                "Device for the backend. alsa: a PCM name (default, hw:0,0, plughw:0,0 or one from asound.conf); "
                "wav: a file path, paced in real time like a device, or with the suffix ?fast as fast as possible; "
                "null: default or fast."),
    unsignedSetting("audio.capture.rate", "16000", "Hz", 8000, 48000, SOTTO_FIELD(capture.rateHz),
                    "Capture sample rate."),
    unsignedSetting("audio.capture.period-ms", "10", "ms", 2, 100, SOTTO_FIELD(capture.periodMs),
                    "Length of one capture period: the frame the pipeline processes at a time."),
    unsignedSetting("audio.capture.periods", "4", "periods", 2, 32, SOTTO_FIELD(capture.periods),
                    "Periods in the capture device buffer: more survive longer stalls, at the cost of latency."),
    nameSetting("audio.playback.backend", "null", SOTTO_FIELD(playback.backend),
                "Audio backend that drives the speaker, by registered name (alsa, wav, null)."),
    textSetting("audio.playback.device", "default", 255, Empty::rejected, SOTTO_FIELD(playback.device),
                "Device for the backend. alsa: a PCM name (default, hw:0,0, plughw:0,0 or one from asound.conf); "
                "wav: a file path, paced in real time like a device, or with the suffix ?fast as fast as possible; "
                "null: default or fast."),
    unsignedSetting("audio.playback.rate", "48000", "Hz", 8000, 48000, SOTTO_FIELD(playback.rateHz),
                    "Playback sample rate."),
    unsignedSetting("audio.playback.period-ms", "10", "ms", 2, 100, SOTTO_FIELD(playback.periodMs),
                    "Length of one playback period."),
    unsignedSetting("audio.playback.periods", "4", "periods", 2, 32, SOTTO_FIELD(playback.periods),
                    "Periods in the playback device buffer: more survive longer stalls, at the cost of latency."),

    pathSetting("model.path", "/usr/share/sotto/models/model.gguf", Empty::rejected, SOTTO_FIELD(modelPath),
                "The local language model (GGUF file)."),
    unsignedSetting("model.threads", "2", "threads", 1, 64, SOTTO_FIELD(llmThreads),
                    "Threads the local model computes with."),
    unsignedSetting("model.context", "2048", "tokens", 256, 131072, SOTTO_FIELD(contextTokens),
                    "Context window of the local model; its KV cache is reserved at start-up."),
    boolSetting("model.mlock", "false", SOTTO_FIELD(modelMlock),
                "Lock the model's weights in RAM so that they are never paged out."),
    boolSetting("model.prefix-cache", "true", SOTTO_FIELD(modelPrefixCache),
                "Keep the local model's KV cache between requests: the system prompt's KV is restored from the "
                "state directory at start-up (computed and saved at the first) and each request keeps the prefix "
                "it shares with the one before; false = every prompt is evaluated whole (slower first token: for "
                "comparisons, e.g. in sotto-bench e2e)."),

    signedSetting("speech.noise-suppress-db", "-30", "dB", -60, 0, SOTTO_FIELD(noiseSuppressDb),
                  "Maximum attenuation of stationary noise on the capture signal (speexdsp); 0 = off."),
    unsignedSetting("speech.high-pass-hz", "60", "Hz", 0, 1000, SOTTO_FIELD(highPassHz),
                    "High-pass cutoff on the capture signal, before noise suppression, wake word and ASR: rumble "
                    "below the voice keeps the speech probability up after the voice stops; 0 = off (20 Hz at least)."),
    boolSetting("speech.agc", "true", SOTTO_FIELD(agc),
                "Automatic gain control on the capture signal before wake word and ASR."),
    unsignedSetting("speech.vad-start-percent", "80", "%", 1, 100, SOTTO_FIELD(vadStartPercent),
                    "Speech probability from which a silent frame counts as the start of speech."),
    unsignedSetting("speech.vad-continue-percent", "50", "%", 1, 100, SOTTO_FIELD(vadContinuePercent),
                    "Speech probability above which a frame continues speech already in progress."),
    unsignedSetting("speech.vad-energy-gate-db", "25", "dB", 0, 60, SOTTO_FIELD(vadEnergyGateDb),
                    "Speech in progress ends at a frame this far below the speech's recent peak level, whatever the "
                    "speech probability (which lags the voice by about 150 ms), and stays ended until the level "
                    "comes back; 0 = the probability alone."),
    unsignedSetting("speech.vad-background-gate-percent", "0", "%", 0, 90, SOTTO_FIELD(vadBackgroundGatePercent),
                    "Speech in progress also ends at a frame whose level lies less than this share of the way from "
                    "the background's level up to the speech's peak (noise the suppressor cannot remove: other "
                    "talkers, music, a TV), while the speech stands 6 dB above it; 0 = off (off by default: in babble it "
                    "ended turns sooner but short noisy transcripts were executed as commands more often, README)."),
    unsignedSetting("speech.vad-background-hold-ms", "700", "ms", 0, 60000, SOTTO_FIELD(vadBackgroundHoldMs),
                    "Speech in progress also ends once the capture's level has stayed at the background's (within a "
                    "quarter of the way up to the speech's peak) for this long in a row, whatever the speech "
                    "probability, which can stay up for seconds after the voice in steady noise; 0 = off."),
    unsignedSetting("speech.endpoint-silence-ms", "300", "ms", 100, 5000, SOTTO_FIELD(endpointSilenceMs),
                    "Trailing silence after which an utterance ends (endpoint)."),
    boolSetting("speech.semantic-endpoint", "true", SOTTO_FIELD(semanticEndpoint),
                "Semantic endpointing: when the words heard so far are a whole command the understanding is sure "
                "of (every required slot said, no trailing \"and\", \"to\" or number still being spoken), the "
                "turn ends after speech.endpoint-complete-ms of silence; unfinished commands, and questions not "
                "said whole (speech.semantic-endpoint-questions), keep speech.endpoint-silence-ms. Needs the intent catalogue (the recognizer's understanding)."),
    boolSetting("speech.semantic-endpoint-questions", "true", SOTTO_FIELD(semanticEndpointQuestions),
                "With speech.semantic-endpoint: a question said whole (\"what is the capital of france\": opened "
                "by a question word, an auxiliary or tell/explain/describe, four words or more, not ending on "
                "\"how much\", \"tell me\", a trailing \"of\" or a number still being spoken) also ends its turn "
                "after speech.endpoint-complete-ms; false = only whole commands do."),
    unsignedSetting("speech.endpoint-complete-ms", "120", "ms", 50, 5000, SOTTO_FIELD(endpointCompleteMs),
                    "Trailing silence after which a whole command ends its turn (speech.semantic-endpoint); not "
                    "below speech.endpoint-silence-ms = no effect."),
    unsignedSetting("speech.follow-up-ms", "0", "ms", 0, 30000, SOTTO_FIELD(followUpMs),
                    "Follow-up without the wake word: once an answer has been spoken, speech that starts within "
                    "this window is heard as the next request; 0 = off (the wake word is always needed)."),
    boolSetting("speech.speculate", "false", SOTTO_FIELD(speculate),
                "Speculative work on stable partials: at each pause of speech.endpoint-complete-ms that does not "
                "end the turn, the brain reads the words so far and, unless they are a command, prefills the local "
                "model's KV cache with their prompt; the final keeps the prefix it shares with it and evaluates "
                "the rest. Nothing takes effect before the turn ends (no handler runs, nothing is sent or said)."),
    textSetting("speech.stop-phrase", "stop", 64, Empty::allowed, SOTTO_FIELD(stopPhrase),
                "Said while the device speaks, this phrase stops the answer without the wake word (spotted on the "
                "echo-cancelled capture, only during playback and only with speech.aec on); empty = off."),
    signedSetting("speech.stop-threshold", "-10", "exponent", -60, 0, SOTTO_FIELD(stopThresholdExponent),
                  "Detection threshold 1e<value> of speech.stop-phrase: lower stops more easily (more false stops "
                  "on the device's own speech before the echo canceller has converged)."),
    unsignedSetting("speech.max-utterance-ms", "10000", "ms", 1000, 60000, SOTTO_FIELD(maxUtteranceMs),
                    "Longest utterance after the wake word (also how long to wait for speech to start)."),
    boolSetting("speech.aec", "true", SOTTO_FIELD(aec),
                "Acoustic echo cancellation (speexdsp) of the capture signal against what the speaker plays, so "
                "the device does not hear itself (needs both a microphone and a speaker)."),
    unsignedSetting("speech.aec-tail-ms", "128", "ms", 16, 500, SOTTO_FIELD(aecTailMs),
                    "Length of the echo path the canceller models (room reverberation): longer cancels more of a "
                    "reverberant room, converges more slowly and costs more CPU."),
    unsignedSetting("speech.aec-delay-ms", "0", "ms", 0, 500, SOTTO_FIELD(aecDelayMs),
                    "Fixed latency from the speaker write to the microphone read (device buffers) removed before "
                    "the canceller, so its tail covers only the room. Must not exceed the real latency."),

    textSetting("wake.phrase", "hey computer", 64, Empty::rejected, SOTTO_FIELD(wakePhrase),
                "Wake phrase spotted on the continuous capture stream (words of the ASR dictionary or of "
                "wake.pronunciation)."),
    textSetting("wake.pronunciation", "", 512, Empty::allowed, SOTTO_FIELD(wakePronunciation),
                "Pronunciations of custom wake words, \"WORD PH PH ...\" separated by ';' (CMU phones); empty = "
                "the dictionary's."),
    signedSetting("wake.threshold", "-20", "exponent", -60, 0, SOTTO_FIELD(wakeThresholdExponent),
                  "Keyphrase detection threshold 1e<value>: lower wakes more easily (more false wakes)."),
    signedSetting("wake.phone-loop", "-1", "exponent", -60, 0, SOTTO_FIELD(wakePhoneLoopExponent),
                  "Probability 1e<value> of the phone loop the keyphrase competes with: lower wakes more easily "
                  "(more voices and accents heard, more false wakes on words like the phrase's)."),
    boolSetting("wake.verify", "false", SOTTO_FIELD(wakeVerify),
                "Second pass on each keyphrase detection: its last ~1.4 s is decoded again as the phrase against a "
                "free phone loop, and only a clear win wakes the device (lets the first pass be loose)."),
    signedSetting("wake.verify-threshold", "-200", "score/s", -10000, 0, SOTTO_FIELD(wakeVerifyThreshold),
                  "Second pass: least score per second of audio (pocketsphinx log units) of the phrase against the "
                  "same audio with one of its words replaced by free phones, worst word: lower wakes more easily "
                  "(more false wakes)."),
    pathSetting("wake.model", "/usr/share/sotto/hey-computer.wake", Empty::allowed, SOTTO_FIELD(wakeModel),
                "Wake word network trained for wake.phrase (bench/speech/wake_train); it replaces keyphrase "
                "spotting, whose settings then do not apply. Empty, unreadable or trained for another phrase: "
                "keyphrase spotting (the daemon reports why)."),

    pathSetting("asr.acoustic-model", "/usr/share/pocketsphinx/model/en-us/en-us", Empty::rejected,
                SOTTO_FIELD(asrAcousticModel),
                "Directory of the pocketsphinx acoustic model: the stock en-us, or one adapted to a speaker by "
                "`sotto enroll` (it hears that speaker better and other people worse)."),
    pathSetting("asr.dictionary", "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict", Empty::rejected,
                SOTTO_FIELD(asrDictionary), "Pronunciation dictionary of the wake word and the ASR."),
    pathSetting("asr.language-model", "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin", Empty::allowed,
                SOTTO_FIELD(asrLanguageModel),
                "General language model for open questions; empty = recognize catalogue commands only."),
    boolSetting("asr.grammar", "true", SOTTO_FIELD(asrGrammar),
                "Also decode with the intent catalogue's command grammar; its transcript wins when it scores better "
                "and agrees with the language model's on two thirds of the words."),
    pathSetting("asr.domain-lm", "", Empty::allowed, SOTTO_FIELD(asrDomainLm),
                "Domain language model of the catalogue's commands (bench/nlu/train.sh writes it beside the "
                "catalogue), decoded as a search of its own; empty (the default: it also turns noise and open "
                "questions into commands) = none; missing or unreadable: the other searches go on and the daemon "
                "says why."),
    boolSetting("asr.rescore", "false", SOTTO_FIELD(asrRescore),
                "Choose among the searches' transcripts and their n-best by acoustic score plus the understanding "
                "model's score; false = acoustics and the grammar's agreement rule alone."),
    unsignedSetting("asr.max-hmm-per-frame", "4000", "HMMs", 0, 100000, SOTTO_FIELD(asrMaxHmmPerFrame),
                    "The language-model searches evaluate at most this many HMMs per 10 ms frame (pocketsphinx "
                    "-maxhmmpf): in steady noise their beams stay wide and, uncapped, they cost more than a core "
                    "after a wake; 0 = pocketsphinx's own limit (30000). 4000 measured 29 % less CPU while listening, "
                    "the same speech-to-intent and no wrong action, and asked again a little more often (README)."),
    boolSetting("asr.share-scores", "true", SOTTO_FIELD(asrShareScores),
                "The searches evaluate each 10 ms frame's Gaussians once between them instead of each on its own "
                "(6 % less CPU while listening, the same wrong actions; README). false = each search on its own, "
                "for comparisons."),
    fractionSetting("asr.domain-agreement", "0.6", SOTTO_FIELD(asrDomainAgreement),
                    "With rescoring: a command read from the domain search wins only when at least this share of "
                    "its n-best, weighted by acoustic probability, reads the same intent; else the general "
                    "language model's transcript stands (noise heard as a command); 0 = no such check."),
    fractionSetting("asr.clarify-below", "0.8", SOTTO_FIELD(asrClarifyBelow),
                    "Ask again (\"Sorry, could you say that again?\") when the heard command's intent confidence "
                    "is below this; a state-changing command below it is never executed; 0 = never ask."),

    choiceSetting("tts.engine", "flite", kTtsEngines, SOTTO_FIELD(ttsEngine),
                  "Speech synthesizer: flite (built in, the default) or espeak-ng (needs tts.espeak-data)."),
    textSetting("tts.voice", "", 64, Empty::allowed, SOTTO_FIELD(ttsVoice),
                "Voice of the synthesizer; empty = its default. flite: slt, kal, awb, rms; espeak-ng: a voice name "
                "such as en-us or en (an unknown voice is an error listing the available ones)."),
    unsignedSetting("tts.rate", "100", "%", 50, 300, SOTTO_FIELD(ttsRatePercent),
                    "Speaking rate relative to the voice's own: 200 is twice as fast."),
    unsignedSetting("tts.volume", "100", "%", 0, 400, SOTTO_FIELD(ttsVolumePercent),
                    "Gain on the synthesized speech (saturating): 100 leaves it unchanged."),
    pathSetting("tts.espeak-data", "", Empty::allowed, SOTTO_FIELD(ttsEspeakData),
                "Directory of espeak-ng's espeak-ng-data; empty = the library's compiled-in location."),
    unsignedSetting("tts.max-answer-chars", "1000", "characters", 50, 20000, SOTTO_FIELD(ttsMaxAnswerChars),
                    "Longest answer spoken (and printed by sotto ask), in characters: a longer one is cut at a word "
                    "boundary and ends saying so."),
    boolSetting("tts.streaming", "true", SOTTO_FIELD(ttsStreaming),
                "Speak each phrase of an answer as soon as its text is complete (the local model and the cloud "
                "stream it); false = synthesize only once the whole answer is known (slower first audio: for "
                "comparing the two, e.g. in sotto-bench e2e)."),
    unsignedSetting("tts.first-phrase-wait-ms", "20", "ms", 0, 5000, SOTTO_FIELD(ttsFirstPhraseWaitMs),
                    "When an answer's first phrase is still incomplete this long after its first text (a slow "
                    "model), the whole words already there, two at least, are spoken as the first phrase instead "
                    "of waiting for a clause or four words; 0 = always wait."),

    cpuListSetting("threads.audio-cpus", SOTTO_FIELD(audioCpus),
                   "CPUs the audio thread may run on; empty = no pinning."),
    cpuListSetting("threads.speech-cpus", SOTTO_FIELD(speechCpus),
                   "CPUs the speech thread (wake word, ASR, TTS) may run on; empty = no pinning."),
    cpuListSetting("threads.llm-cpus", SOTTO_FIELD(llmCpus),
                   "CPUs the local model's threads may run on; empty = no pinning."),
    signedSetting("threads.audio-priority", "50", "priority", 0, 99, SOTTO_FIELD(audioPriority),
                  "SCHED_FIFO priority of the audio thread; 0 = normal scheduling."),
    boolSetting("threads.mlockall", "true", SOTTO_FIELD(mlockAll),
                "Lock all of the daemon's memory (mlockall) so that real-time threads never page-fault."),

    choiceSetting("privacy.mode", "private", privacy::kPrivacyModeNames, SOTTO_FIELD(privacy),
                  "offline: no network at all; private: anonymized escalation, local-only PII stays; standard: "
                  "anonymized escalation whenever the router decides."),
    unsignedSetting("privacy.device-id-rotation-h", "24", "h", 1, 8760, SOTTO_FIELD(deviceIdRotationH),
                    "How often the pseudonymous device id sent to the cloud changes (keyed hash of the period)."),
    unsignedSetting("privacy.audit.max-file-kib", "256", "KiB", 16, 65536, SOTTO_FIELD(auditMaxFileKib),
                    "Largest audit log file (encrypted record of every escalated request); then it rotates."),
    unsignedSetting("privacy.audit.files", "4", "files", 2, 64, SOTTO_FIELD(auditFiles),
                    "Audit log files kept (current + rotated): the log never exceeds files x max-file-kib."),
    choiceSetting("privacy.policy.person", "redact", kPiiPolicies, SOTTO_FIELD(piiPolicy[0]),
                  "PERSON (names of private people): local-only = kept on the device "
                  "(standard mode: a placeholder), redact = sent as a placeholder, allow = sent as is."),
    choiceSetting("privacy.policy.phone", "redact", kPiiPolicies, SOTTO_FIELD(piiPolicy[1]),
                  "PHONE (phone numbers): local-only = kept on the device "
                  "(standard mode: a placeholder), redact = sent as a placeholder, allow = sent as is."),
    choiceSetting("privacy.policy.email", "redact", kPiiPolicies, SOTTO_FIELD(piiPolicy[2]),
                  "EMAIL (e-mail addresses): local-only = kept on the device "
                  "(standard mode: a placeholder), redact = sent as a placeholder, allow = sent as is."),
    choiceSetting("privacy.policy.address", "redact", kPiiPolicies, SOTTO_FIELD(piiPolicy[3]),
                  "ADDRESS (postal addresses): local-only = kept on the device "
                  "(standard mode: a placeholder), redact = sent as a placeholder, allow = sent as is."),
    choiceSetting("privacy.policy.credit-card", "local-only", kPiiPolicies, SOTTO_FIELD(piiPolicy[4]),
                  "CREDIT_CARD (payment card numbers): local-only = kept on the device "
                  "(standard mode: a placeholder), redact = sent as a placeholder, allow = sent as is."),
    choiceSetting("privacy.policy.iban", "local-only", kPiiPolicies, SOTTO_FIELD(piiPolicy[5]),
                  "IBAN (IBANs): local-only = kept on the device "
                  "(standard mode: a placeholder), redact = sent as a placeholder, allow = sent as is."),
    choiceSetting("privacy.policy.ssn", "local-only", kPiiPolicies, SOTTO_FIELD(piiPolicy[6]),
                  "SSN (social security and other national identity numbers: UK NINO, Canadian SIN, Australian TFN "
                  "and Medicare): local-only = kept on the device "
                  "(standard mode: a placeholder), redact = sent as a placeholder, allow = sent as is."),
    choiceSetting("privacy.policy.date-of-birth", "redact", kPiiPolicies, SOTTO_FIELD(piiPolicy[7]),
                  "DATE_OF_BIRTH (birth dates): local-only = kept on the device "
                  "(standard mode: a placeholder), redact = sent as a placeholder, allow = sent as is."),
    choiceSetting("privacy.policy.age", "redact", kPiiPolicies, SOTTO_FIELD(piiPolicy[8]),
                  "AGE (ages): local-only = kept on the device "
                  "(standard mode: a placeholder), redact = sent as a placeholder, allow = sent as is."),
    choiceSetting("privacy.policy.ip-address", "redact", kPiiPolicies, SOTTO_FIELD(piiPolicy[9]),
                  "IP_ADDRESS (the user's IP addresses): local-only = kept on the device "
                  "(standard mode: a placeholder), redact = sent as a placeholder, allow = sent as is."),
    choiceSetting("privacy.policy.account-number", "local-only", kPiiPolicies, SOTTO_FIELD(piiPolicy[10]),
                  "ACCOUNT_NUMBER (bank, customer, policy and member numbers; employee ids, licence and passport "
                  "numbers): local-only = kept on the device "
                  "(standard mode: a placeholder), redact = sent as a placeholder, allow = sent as is."),
    choiceSetting("privacy.policy.pin-or-password", "local-only", kPiiPolicies, SOTTO_FIELD(piiPolicy[11]),
                  "PIN_OR_PASSWORD (PINs, door codes, passwords, wifi keys, API keys and tokens, seed phrases): "
                  "local-only = kept on the device "
                  "(standard mode: a placeholder), redact = sent as a placeholder, allow = sent as is."),
    choiceSetting("privacy.policy.health", "local-only", kPiiPolicies, SOTTO_FIELD(piiPolicy[12]),
                  "HEALTH (a person's medical conditions and medication): local-only = kept on the device "
                  "(standard mode: a placeholder), redact = sent as a placeholder, allow = sent as is."),
    choiceSetting("privacy.policy.location", "redact", kPiiPolicies, SOTTO_FIELD(piiPolicy[13]),
                  "LOCATION (named places tied to a person): local-only = kept on the device "
                  "(standard mode: a placeholder), redact = sent as a placeholder, allow = sent as is."),

    urlSetting("cloud.endpoint", SOTTO_FIELD(cloudEndpoint),
               "Base URL of the OpenAI-compatible cloud API; empty = never escalate to the cloud."),
    textSetting("cloud.model", "", 128, Empty::allowed, SOTTO_FIELD(cloudModel),
                "Model name sent to the cloud API; required when cloud.endpoint is set."),
    pathSetting("cloud.api-key-file", "", Empty::allowed, SOTTO_FIELD(cloudApiKeyFile),
                "File holding the cloud API key (keep it mode 0600); empty = send no key."),
    unsignedSetting("cloud.connect-timeout-ms", "2000", "ms", 100, 30000, SOTTO_FIELD(cloudConnectTimeoutMs),
                    "Give up connecting to the cloud endpoint after this long."),
    unsignedSetting("cloud.first-byte-timeout-ms", "5000", "ms", 100, 60000, SOTTO_FIELD(cloudFirstByteTimeoutMs),
                    "Give up on a cloud request whose first response byte has not arrived after this long."),
    unsignedSetting("cloud.idle-timeout-ms", "5000", "ms", 100, 60000, SOTTO_FIELD(cloudIdleTimeoutMs),
                    "Give up on a cloud answer stream that stays silent this long after it has begun."),
    pathSetting("cloud.ca-file", "", Empty::allowed, SOTTO_FIELD(cloudCaFile),
                "PEM file of the CAs trusted for the cloud endpoint; empty = the system bundle "
                "(/etc/ssl/certs/ca-certificates.crt)."),
    pathSetting("cloud.client-cert-file", "", Empty::allowed, SOTTO_FIELD(cloudClientCertFile),
                "PEM client certificate for mutual TLS with the cloud endpoint; empty = none."),
    pathSetting("cloud.client-key-file", "", Empty::allowed, SOTTO_FIELD(cloudClientKeyFile),
                "PEM private key of cloud.client-cert-file (keep it mode 0600)."),

    unsignedSetting("cache.exact-entries", "1024", "entries", 0, 65536, SOTTO_FIELD(cacheExactEntries),
                    "Capacity of the exact-match answer cache; 0 disables it."),
    unsignedSetting("cache.semantic-entries", "512", "entries", 0, 65536, SOTTO_FIELD(cacheSemanticEntries),
                    "Capacity of the semantic (similar question) answer cache; 0 disables it."),
    unsignedSetting("cache.ttl-time-sensitive-s", "60", "s", 30, 300, SOTTO_FIELD(cacheTtlTimeSensitiveS),
                    "How long a cached answer that depends on the time (weather, news) stays valid."),
    unsignedSetting("cache.ttl-static-s", "604800", "s", 1, 31536000, SOTTO_FIELD(cacheTtlStaticS),
                    "How long a cached answer that does not depend on the time stays valid."),
    unsignedSetting("cache.semantic-threshold-percent", "90", "%", 50, 100, SOTTO_FIELD(cacheSemanticThresholdPct),
                    "Least cosine similarity (in percent) of prompt embeddings for a semantic cache hit; at "
                    "start-up it rises above what the local model scores for unrelated requests (the semantic tier "
                    "is off when the model cannot separate them). The negation, number, entity, slot and "
                    "content-word guards must pass as well."),
    unsignedSetting("cache.warm-start-entries", "256", "entries", 0, 65536, SOTTO_FIELD(cacheWarmStartEntries),
                    "Entries per tier reloaded from the cache file at start-up, most-hit first; 0 = all that fit."),
    unsignedSetting("cache.max-answer-bytes", "1024", "bytes", 64, 65536, SOTTO_FIELD(cacheMaxAnswerBytes),
                    "Longest answer the cache stores (memory for every entry is reserved at start-up)."),

    unsignedSetting("latency.simple-ms", "300", "ms", 50, 5000, SOTTO_FIELD(budgetSimpleMs),
                    "Round-trip budget (end of speech to first audio) for intents and cached answers."),
    unsignedSetting("latency.local-ms", "800", "ms", 50, 10000, SOTTO_FIELD(budgetLocalMs),
                    "Round-trip budget for answers from the local model."),
    unsignedSetting("latency.first-token-ms", "700", "ms", 50, 10000, SOTTO_FIELD(budgetFirstTokenMs),
                    "Budget for the local model's first token; the router degrades when it is exceeded."),
    unsignedSetting("latency.hard-timeout-ms", "8000", "ms", 1000, 60000, SOTTO_FIELD(hardTimeoutMs),
                    "Deadline of a whole answer (not only its first token): a cloud answer not finished this long "
                    "after it was sent is cut, what was said ending with \"I ran out of time\"; with nothing said "
                    "yet, the local model answers or the user is told."),

    unsignedSetting("router.intent-confidence-percent", "60", "%", 0, 100, SOTTO_FIELD(routerIntentConfidencePercent),
                    "An intent match at least this confident is answered by its deterministic handler."),
    unsignedSetting("router.local-confidence-percent", "80", "%", 0, 100, SOTTO_FIELD(routerLocalConfidencePercent),
                    "The local model answers when the mean probability of its first tokens is above this; below, "
                    "the request escalates if allowed."),
    unsignedSetting("router.semantic-similarity-percent", "90", "%", 0, 100,
                    SOTTO_FIELD(routerSemanticSimilarityPercent),
                    "A similar cached question at least this similar (cosine) answers, when the cache's guards agree."),
    unsignedSetting("router.cloud-max-per-hour", "60", "requests", 0, 100000, SOTTO_FIELD(cloudMaxPerHour),
                    "Cloud requests allowed in any sliding hour (cost cap); 0 = none."),
    unsignedSetting("router.cloud-max-per-day", "500", "requests", 0, 100000, SOTTO_FIELD(cloudMaxPerDay),
                    "Cloud requests allowed in any sliding 24 hours (cost cap); 0 = none."),
    unsignedSetting("router.breaker-failures", "3", "failures", 1, 1000, SOTTO_FIELD(breakerFailures),
                    "Consecutive cloud failures that open the circuit breaker (no cloud requests until a probe "
                    "succeeds)."),
    unsignedSetting("router.breaker-failure-percent", "50", "%", 1, 100, SOTTO_FIELD(breakerFailurePercent),
                    "Share of failed cloud requests among the last router.breaker-window that also opens the breaker."),
    unsignedSetting("router.breaker-window", "10", "requests", 1, 64, SOTTO_FIELD(breakerWindow),
                    "Recent cloud requests the breaker's failure share is computed over."),
    unsignedSetting("router.breaker-backoff-ms", "5000", "ms", 100, 3600000, SOTTO_FIELD(breakerBackoffMs),
                    "How long an opened breaker waits before one probe request; doubles after each failed probe."),
    unsignedSetting("router.breaker-max-backoff-ms", "300000", "ms", 100, 3600000, SOTTO_FIELD(breakerMaxBackoffMs),
                    "Longest wait between probes of an open breaker."),

    pathSetting("paths.state-dir", "/var/lib/sotto", Empty::rejected, SOTTO_FIELD(stateDir),
                "Persistent state: caches, device key, audit log."),
    pathSetting("paths.log-dir", "/var/log/sotto", Empty::rejected, SOTTO_FIELD(logDir),
                "Files written besides the journal (metrics dumps)."),
    pathSetting("paths.runtime-dir", "/run/sotto", Empty::rejected, SOTTO_FIELD(runtimeDir),
                "Runtime files: control socket."),

    choiceSetting("log.level", "info", kLogLevels, SOTTO_FIELD(logLevel),
                  "Least severe messages that are logged."),

    unsignedSetting("watchdog.stall-ms", "2000", "ms", 100, 60000, SOTTO_FIELD(watchdogStallMs),
                    "A stage that makes no progress for this long is reported and restarted."),
    unsignedSetting("watchdog.status-interval-ms", "1000", "ms", 100, 60000, SOTTO_FIELD(statusIntervalMs),
                    "How often the daemon reports its status (service manager, metrics)."),
});

#undef SOTTO_FIELD

constexpr auto kRules = std::to_array<Rule>({
    {RuleKind::notGreater, "latency.simple-ms", "latency.local-ms",
     "a simple answer cannot get more time than a model answer"},
    {RuleKind::notGreater, "latency.first-token-ms", "latency.local-ms",
     "the first token comes before the first audio of a model answer"},
    {RuleKind::notGreater, "latency.local-ms", "latency.hard-timeout-ms", "the hard timeout ends every budget"},
    {RuleKind::notGreater, "cloud.connect-timeout-ms", "cloud.first-byte-timeout-ms",
     "the first byte cannot arrive before the connection"},
    {RuleKind::requiresValue, "cloud.endpoint", "cloud.model", "the cloud API needs a model name"},
    {RuleKind::notGreater, "router.cloud-max-per-hour", "router.cloud-max-per-day",
     "an hour is part of a day"},
    {RuleKind::notGreater, "router.breaker-backoff-ms", "router.breaker-max-backoff-ms",
     "the first backoff cannot exceed the longest"},
    {RuleKind::requiresValue, "cloud.client-cert-file", "cloud.client-key-file", "a client certificate needs its key"},
    {RuleKind::requiresValue, "cloud.client-key-file", "cloud.client-cert-file", "a client key needs its certificate"},
    {RuleKind::notGreater, "speech.vad-continue-percent", "speech.vad-start-percent",
     "continuing speech needs no more evidence than starting it"},
    {RuleKind::notGreater, "speech.endpoint-silence-ms", "speech.max-utterance-ms",
     "the trailing silence is part of the utterance"},
});

constexpr const Setting* find(std::string_view path) {
  for (const Setting& s : kSettings) {
    if (s.path == path) return &s;
  }
  return nullptr;
}

constexpr bool isStringField(const Setting& s) { return std::holds_alternative<FieldRef<std::string>>(s.field); }

// What the compiler can check about the table; the tests check the rest (defaults parse, rules hold).
consteval bool tableIsConsistent() {
  for (std::size_t i = 0; i < kSettings.size(); ++i) {
    const Setting& s = kSettings[i];
    if (s.path.empty() || s.path.find('.') == std::string_view::npos || s.description.empty()) return false;
    for (std::size_t j = i + 1; j < kSettings.size(); ++j) {
      if (kSettings[j].path == s.path) return false;
    }
    if (s.min > s.max) return false;
    if (s.type == ValueType::unsignedInt && (s.min < 0 || s.max > std::numeric_limits<uint32_t>::max())) return false;
    if (s.type == ValueType::signedInt &&
        (s.min < std::numeric_limits<int>::min() || s.max > std::numeric_limits<int>::max())) {
      return false;
    }
    const bool defaultIsAChoice = std::find(s.choices.begin(), s.choices.end(), s.defaultText) != s.choices.end();
    if (s.type == ValueType::choice && !defaultIsAChoice) return false;
  }
  for (const Rule& r : kRules) {
    const Setting* a = find(r.a);
    const Setting* b = find(r.b);
    if (a == nullptr || b == nullptr || r.why.empty()) return false;
    if (r.kind == RuleKind::notGreater && (a->type != ValueType::unsignedInt || b->type != ValueType::unsignedInt)) {
      return false;
    }
    if (r.kind == RuleKind::requiresValue && (!isStringField(*a) || !isStringField(*b))) return false;
  }
  return true;
}
static_assert(tableIsConsistent(), "settings table: duplicate path, bad range, bad default choice or bad rule");

}  // namespace

std::span<const Setting> settings() { return kSettings; }
std::span<const Rule> rules() { return kRules; }
const Setting* findSetting(std::string_view path) { return find(path); }

Config defaults() {
  Config config;
  for (const Setting& s : kSettings) {
    [[maybe_unused]] const auto error = detail::assign(s, s.defaultText, config);
    assert(!error && "a default in the settings table does not parse (test_config names it)");
  }
  return config;
}

}  // namespace sotto::config
