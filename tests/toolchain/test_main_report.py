# SPDX-License-Identifier: MIT
# The main job's report (toolchain/main_report.py) on hand-made sottod logs: records are joined by request number
# and audio time, never by order, and a record it cannot read is shown as such, never a crash.
import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'toolchain'))
import main_report as mr  # noqa: E402


def final(seq, at_ms, text, whole=False):
    return ('debug speech[final]: request %d: final at %d ms of audio, endpoint %d ms after speech%s, %d words '
            '(grammar search, confidence 1.00): "%s"' % (seq, at_ms, 120 if whole else 300,
                                                         ' (a whole command)' if whole else '',
                                                         len(text.split()), text))


def answered(seq, route='intent', reason='intent-confident'):
    return ('info answer[answered]: request %d: route=%s reason=%s, 19 bytes of answer, first text 0.3 ms after the '
            'transcript' % (seq, route, reason))


def first_audio(aid, seq, after_speech=150):
    return ('info answer[first-audio]: answer %d (request %d): first audio 30 ms after the endpoint (%d ms after the '
            'end of speech), 11.7 ms after the transcript' % (aid, seq, after_speech))


def decision(route):
    return 'info router[decision]: route=%s reason=x block=none mode=private pii=none' % route


SAID = [('slt', 'what time is it', 2000, 9000), ('awb', 'set a ten minute timer', 9000, 16000),
        ('awb', 'set the volume to five', 16000, 23000), ('rms', 'convert ten miles to kilometers', 23000, 30000)]


def run_report(lines, said=SAID):
    with tempfile.TemporaryDirectory() as d:
        with open(d + '/sottod.log', 'w') as f:
            f.write('\n'.join(lines) + '\n')
        with open(d + '/requests.txt', 'w') as f:
            for s in said:
                f.write('|'.join(str(x) for x in s) + '\n')
        with open(d + '/mode', 'w') as f:
            f.write('private\n')
        os.makedirs(d + '/out/answers')
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            reqs = mr.report_run(d, d + '/out', 1)
        return reqs, out.getvalue()


class MainReportTest(unittest.TestCase):
    def test_prepared_answers_logged_before_their_final(self):
        # Since answers can be prepared from partials, route and first audio come before the final (as seen in
        # the run that broke the report).
        lines = [decision('intent'), answered(1), first_audio(1, 1), final(1, 4550, 'what time is it', True),
                 final(2, 11120, 'set a ten minute timer'), decision('intent'), answered(2), first_audio(2, 2, 330),
                 decision('intent'), answered(3), first_audio(3, 3), final(3, 17830, 'set the volume to five'),
                 final(4, 24710, 'convert ten miles to kilometers', True), decision('intent'), answered(4),
                 first_audio(4, 4)]
        reqs, out = run_report(lines)
        self.assertEqual([r['transcript'] for r in reqs],
                         ['what time is it', 'set a ten minute timer', 'set the volume to five',
                          'convert ten miles to kilometers'])
        # Each request is shown with its own transcript, never its neighbour's.
        for said in SAID:
            block = out.split('said (%s): "%s"' % (said[0], said[1]))[1].split('\n-- ')[0]
            self.assertIn('heard:    "%s"' % said[1], block)
        self.assertEqual(reqs[1]['after_speech_ms'], 330)
        self.assertEqual(out.count('latency:'), 4)

    def test_missing_records(self):
        # Request 2's final was never logged; request 3 was never answered; the third said request was not heard.
        lines = [final(1, 4550, 'what time is it'), answered(1), first_audio(1, 1),
                 answered(2), first_audio(2, 2),
                 final(3, 24710, 'convert ten miles to kilometers')]
        reqs, out = run_report(lines)
        self.assertIn('request 2: no final transcript logged', out)
        self.assertIn('not answered', out)
        self.assertIn('said (awb): "set the volume to five"\n   not heard', out)
        self.assertIn('said (awb): "set a ten minute timer"\n   not heard', out)
        by_seq = {r['seq']: r for r in reqs}
        self.assertEqual(by_seq[3]['transcript'], 'convert ten miles to kilometers')
        self.assertNotIn('route', by_seq[3])

    def test_duplicated_and_unreadable_records(self):
        lines = [final(1, 4550, 'what time is it'), final(1, 4600, 'what time is it again'), answered(1),
                 answered(1, route='cloud'), first_audio(1, 1), first_audio(1, 1, 999),
                 'debug speech[final]: request 2: final in a format nobody knows',
                 'info answer[first-audio]: answer 2: first audio soon']
        reqs, out = run_report(lines)
        r = {x['seq']: x for x in reqs}[1]
        self.assertEqual((r['transcript'], r['route'], r['after_speech_ms']), ('what time is it', 'intent', 150))
        self.assertIn('a second final for request 1', out)
        self.assertIn('a second answered record for request 1', out)
        self.assertIn('a second first audio for answer 1', out)
        self.assertIn('unreadable speech[final] record', out)
        self.assertIn('unreadable answer[first-audio] record', out)

    def test_announcements_shift_answer_ids_not_requests(self):
        lines = [final(1, 4550, 'what time is it'), answered(1), first_audio(1, 1),
                 'info answer[announcement]: answer 2: announcement (20 bytes)',
                 'info tts[spoken]: answer 2: 1 phrases, 1.50 s of audio',
                 final(2, 11120, 'set a ten minute timer'), answered(2), first_audio(3, 2, 222),
                 'info tts[spoken]: answer 3: 2 phrases, 2.25 s of audio']
        reqs, _ = run_report(lines)
        r = {x['seq']: x for x in reqs}[2]
        self.assertEqual((r['after_speech_ms'], r['seconds'], r['answer_id']), (222, 2.25, 3))

    def test_requests_without_times_pair_by_number(self):
        said = [(v, t, None, None) for v, t, _, _ in SAID[:2]]
        lines = [final(2, 11120, 'set a ten minute timer'), final(1, 4550, 'what time is it')]
        reqs, out = run_report(lines, said=said)
        self.assertIn('said (slt): "what time is it"\n   heard:    "what time is it"', out)
        self.assertEqual([r['seq'] for r in reqs], [1, 2])

    def test_empty_or_missing_log(self):
        reqs, out = run_report([])
        self.assertEqual(reqs, [])
        self.assertEqual(out.count('not heard'), 4)


if __name__ == '__main__':
    unittest.main()
