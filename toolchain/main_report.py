#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The main job's report (toolchain/main.sh): reads sottod's debug log of the demo run, the audit log and the
# loopback cloud's record, and prints per request the transcript, the route and its reason, the anonymized request
# that left, the answer and the latencies; cuts the playback WAV into one file per answer; ends with a table per
# route and an SVG of each request's latency. Python's standard library only.
import argparse
import json
import math
import re
import statistics
import sys
import wave

# Every record names its request (the transcript's sequence number): records are joined by it, never by order.
# Since answers can be prepared from partials, a request's route and first audio may be logged before its final.
FINAL = re.compile(r'speech\[final\]: request (\d+): final(?: transcript)? at (\d+) ms of audio, endpoint (\d+) ms '
                   r'after speech(?: \([^)]*\))?, \d+ words \((\w+) search, confidence ([\d.]+)\)(?:: "(.*)")?\s*$')
DECISION = re.compile(r'router\[decision\]: (.*)$')
ANSWERED = re.compile(r'answer\[answered\]: request (\d+): route=(\S+) reason=([^,]+), (\d+) bytes of answer, '
                      r'first text (-?[\d.]+) ms after the transcript(.*)$')
FAILED = re.compile(r'answer\[(?:failed|no-brain)\]: request (\d+)')
TEXT = re.compile(r'answer\[text\]: request (\d+): "(.*?)"?$')  # a long answer's line is cut
FIRST_AUDIO = re.compile(r'answer\[first-audio\]: answer (\d+) \(request (\d+)\): first audio (\d+) ms after the '
                         r'endpoint \((\d+) ms after the end of speech\), ([\d.]+) ms after the transcript')
SPOKEN = re.compile(r'tts\[spoken\]: answer (\d+): (\d+) phrases, ([\d.]+) s of audio')
CANCELLED = re.compile(r'tts\[cancelled\]: answer (\d+) stopped after ([\d.]+) s of audio')
ANNOUNCE = re.compile(r'answer\[announcement\]: answer (\d+)')
# The records above, by the tag that starts them: a line with one of these tags that its pattern cannot read is
# reported as unreadable, never skipped in silence and never a crash.
RECORDS = (('speech[final]:', FINAL), ('answer[answered]:', ANSWERED), ('answer[text]:', TEXT),
           ('answer[first-audio]:', FIRST_AUDIO), ('tts[spoken]:', SPOKEN), ('tts[cancelled]:', CANCELLED),
           ('answer[failed]:', FAILED), ('answer[no-brain]:', FAILED))


def parse_lines(lines):
    """sottod's log lines -> (requests by number, notes). A request's facts: seq, and as far as logged: at_ms,
    endpoint_ms, search, confidence, transcript (speech[final]); route, reason, bytes, first_text_ms, flags, decision
    (answer[answered]); answer; after_endpoint_ms, after_speech_ms, after_transcript_ms (first audio); seconds,
    phrases, stopped (tts). Records that repeat a request's field keep the first and are noted."""
    reqs = {}       # request number -> facts
    audio = {}      # answer id -> facts, joined to requests by the first-audio line's request number
    answer_of = {}  # answer id -> request number
    decisions = []  # router decisions not yet claimed by an answered line (the brain thread logs both, in turn)
    announcements = 0
    notes = []

    def put(seq, facts, what, line_no):
        r = reqs.setdefault(seq, dict(seq=seq))
        if any(k in r for k in facts):
            notes.append('line %d: a second %s for request %d (ignored)' % (line_no, what, seq))
            return
        r.update(facts)

    for n, line in enumerate(lines, 1):
        line = line.rstrip('\n')
        tag = next(((t, rx) for t, rx in RECORDS if t in line), None)
        if tag is not None:
            m = tag[1].search(line)
            if m is None:
                notes.append('line %d: unreadable %s record: %s' % (n, tag[0].rstrip(':'), line.strip()[:160]))
                continue
            if tag[1] is FINAL:
                put(int(m[1]), dict(at_ms=int(m[2]), endpoint_ms=int(m[3]), search=m[4], confidence=float(m[5]),
                                    transcript=m[6] if m[6] is not None else '(not logged at this level)'),
                    'final', n)
            elif tag[1] is ANSWERED:
                put(int(m[1]), dict(route=m[2], reason=m[3], bytes=int(m[4]), first_text_ms=float(m[5]),
                                    flags=m[6].strip(', '), decision=decisions[-1] if decisions else ''),
                    'answered record', n)
                decisions = []
            elif tag[1] is TEXT:
                put(int(m[1]), dict(answer=m[2]), 'answer text', n)
            elif tag[1] is FAILED:
                put(int(m[1]), dict(failed=True), 'failure', n)
            elif tag[1] is FIRST_AUDIO:
                aid, seq = int(m[1]), int(m[2])
                if aid in answer_of:
                    notes.append('line %d: a second first audio for answer %d (ignored)' % (n, aid))
                    continue
                answer_of[aid] = seq
                audio.setdefault(aid, {}).update(after_endpoint_ms=int(m[3]), after_speech_ms=int(m[4]),
                                                 after_transcript_ms=float(m[5]))
            elif tag[1] is SPOKEN:
                audio.setdefault(int(m[1]), {}).update(seconds=float(m[3]), phrases=int(m[2]), stopped=False)
            elif tag[1] is CANCELLED:
                audio.setdefault(int(m[1]), {}).update(seconds=float(m[2]), stopped=True)
        elif m := DECISION.search(line):
            decisions.append(m[1])
        elif ANNOUNCE.search(line):
            announcements += 1
        elif ('answer[metrics]' in line or 'speech[metrics]' in line or 'brain[degraded]' in line
              or 'semantic-cache' in line or line.startswith('error ')):
            notes.append(line)
    if announcements:
        notes.append('%d announcements (timers) were spoken too' % announcements)
    for aid, seq in answer_of.items():
        reqs.setdefault(seq, dict(seq=seq)).update(audio.get(aid, {}), answer_id=aid)
    return reqs, notes


def parse(log_path):
    try:
        with open(log_path, errors='replace') as f:
            return parse_lines(f)
    except OSError as e:
        return {}, ['cannot read %s (%s)' % (log_path, e)]


def read_requests(path):
    """The requests said: (voice, text, start_ms, end_ms) per line of requests.txt ("voice|text|start|end"; the
    times are the request's span of the microphone stream, wake word to the end of its pause). A line without
    times is kept with None."""
    said = []
    try:
        with open(path) as f:
            for line in f:
                parts = line.rstrip('\n').split('|')
                start = end = None
                if len(parts) >= 4:
                    try:
                        start, end = float(parts[2]), float(parts[3])
                    except ValueError:
                        pass
                said.append((parts[0], parts[1] if len(parts) > 1 else '?', start, end))
    except OSError:
        pass
    return said


def pair(said, reqs):
    """Which request said each heard request belongs to: the one whose span of the stream holds its final's audio
    time; without times (or without a final), the request number. Returns [(said or None, facts)] in stream order,
    with every request said but never heard as (said, None)."""
    out, claimed = [], set()
    timed = all(s[2] is not None for s in said)
    for seq in sorted(reqs):
        r = reqs[seq]
        k = None
        if timed and 'at_ms' in r:
            k = next((i for i, s in enumerate(said) if s[2] <= r['at_ms'] < s[3]), None)
        elif not timed and seq - 1 < len(said):
            k = seq - 1
        if k is not None and k in claimed:
            r.setdefault('note', 'a second request heard in the same turn')
        out.append((k, r))
        if k is not None:
            claimed.add(k)
    for i in range(len(said)):
        if i not in claimed:
            out.append((i, None))
    def position(item):
        k, r = item
        if k is not None:
            return (said[k][2] if timed else k, r['seq'] if r else 0)
        return (r.get('at_ms', 1e18) if timed else r['seq'] - 1, r['seq'])
    out.sort(key=position)
    return [(said[k] if k is not None else None, r) for k, r in out]


def sent_user_text(sent):
    """The user's turn in an OpenAI-style request body (what left the device), else the body itself."""
    try:
        body = json.loads(sent)
        users = [m.get('content', '') for m in body.get('messages', []) if m.get('role') == 'user']
        if users:
            return users[-1]
    except (ValueError, AttributeError):
        pass
    return sent


def read_jsonl(path):
    out = []
    try:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line:
                    try:
                        out.append(json.loads(line))
                    except ValueError:
                        pass
    except OSError:
        pass
    return out


def split_answers(wav_path, reqs, out_dir, first_seq):
    """One WAV per answer, cut from the playback file. The wav sink is paced like the capture (it plays silence
    between answers), so a sample's position in it is the capture's audio time."""
    try:
        src = wave.open(wav_path, 'rb')
    except (OSError, wave.Error) as e:
        return 'no playback file (%s)' % e
    rate, width, nframes = src.getframerate(), src.getsampwidth(), src.getnframes()
    data = src.readframes(nframes)
    src.close()
    made = 0
    for r in reqs:
        if 'after_endpoint_ms' not in r or 'seconds' not in r or 'at_ms' not in r:
            continue
        start_ms = r['at_ms'] + r['after_endpoint_ms'] - 50
        end_ms = start_ms + 50 + r['seconds'] * 1000 + 250
        a, b = int(start_ms * rate / 1000), min(int(end_ms * rate / 1000), nframes)
        if a >= b:
            continue
        path = '%s/answer-%02d-%s.wav' % (out_dir, r.get('label', first_seq + r['seq'] - 1), r.get('route', 'none'))
        with wave.open(path, 'wb') as w:
            w.setnchannels(1)
            w.setsampwidth(width)
            w.setframerate(rate)
            w.writeframes(data[a * width:b * width])
        r['wav'] = path
        made += 1
    return '%d answers cut from %s (%.1f s)' % (made, wav_path, nframes / rate)


def pct(values, p):
    if not values:
        return float('nan')
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(p / 100 * len(s)) - 1))]  # nearest rank


def svg(reqs, path):
    """Per request: endpoint delay, transcript -> first text, first text -> first audio, as stacked bars."""
    rows = [r for r in reqs if 'after_speech_ms' in r]
    if not rows:
        return False
    colours = [('endpoint delay', '#9e9e9e'), ('final, brain wait', '#bab0ac'), ('first text', '#4e79a7'),
               ('TTS first chunk', '#f28e2b')]
    width_ms = max(r['after_speech_ms'] for r in rows) * 1.1 or 1
    x0, w, bar = 250, 600, 22
    h = 60 + bar * len(rows) + 40
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
           'font-size="12">' % (x0 + w + 120, h),
           '<text x="10" y="20" font-size="14">sottod: end of speech to first audio, per request (ms)</text>']
    for i, (name, c) in enumerate(colours):
        out.append('<rect x="%d" y="30" width="12" height="12" fill="%s"/><text x="%d" y="41">%s</text>'
                   % (x0 + i * 140, c, x0 + i * 140 + 16, name))
    for i, r in enumerate(rows):
        y = 55 + i * bar
        ep = r.get('endpoint_ms', 0)
        text = max(0.0, r.get('first_text_ms', 0))
        total = r['after_speech_ms']
        wait = max(0.0, total - ep - r.get('after_transcript_ms', 0))
        parts = [ep, wait, min(text, max(0, total - ep - wait)), max(0, total - ep - wait - text)]
        label = '%d %s: %s' % (r.get('label', r['seq']), r.get('route', '?'), r.get('transcript', '')[:26])
        out.append('<text x="10" y="%d">%s</text>' % (y + 15, label.replace('&', '&amp;').replace('<', '&lt;')))
        x = x0
        for (name, c), v in zip(colours, parts):
            pw = v / width_ms * w
            out.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s %.0f ms</title></rect>'
                       % (x, y + 3, pw, bar - 6, c, name, v))
            x += pw
        out.append('<text x="%.1f" y="%d">%d</text>' % (x + 4, y + 15, total))
    out.append('</svg>')
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')
    return True


def latency_line(r):
    """The latency breakdown, from what was logged; a part that is missing is named, never a crash."""
    if 'after_speech_ms' not in r:
        return None
    ep = r.get('endpoint_ms')
    tx = r.get('after_transcript_ms')
    text = r.get('first_text_ms', -1)
    wait = r['after_speech_ms'] - ep - tx if ep is not None and tx is not None else float('nan')
    tts = tx - text if tx is not None and text >= 0 else float('nan')
    return ('%d ms end of speech -> first audio = endpoint delay %s + final transcript and wait for the brain %.0f + '
            'first text (token) %.1f + TTS first chunk %.1f'
            % (r['after_speech_ms'], ep if ep is not None else '?', wait, text, tts))


def report_run(run_dir, out_dir, first_seq):
    """Prints one demo run's requests; returns their facts (labelled from first_seq for the table)."""
    said = read_requests(run_dir + '/requests.txt')
    try:
        with open(run_dir + '/mode') as f:
            mode = f.read().strip()
    except OSError:
        mode = '?'
    reqs, notes = parse(run_dir + '/sottod.log')
    audits = read_jsonl(run_dir + '/audit.jsonl')
    rows = pair(said, reqs)
    heard = [r for _, r in rows if r is not None]
    for i, r in enumerate(heard):
        r['label'] = first_seq + i
    split_note = split_answers(run_dir + '/answers.wav', heard, out_dir + '/answers', first_seq)

    print()
    print('== %s: privacy mode %s; %d requests said, %d heard' % (run_dir, mode, len(said),
                                                                   sum(1 for r in heard if 'at_ms' in r)))
    cloud_i = 0
    for spoken, r in rows:
        print()
        if r is None:
            print('-- said (%s): "%s"' % (spoken[0], spoken[1]))
            print('   not heard: no final transcript in its part of the stream')
            continue
        who = ('said (%s): "%s"' % (spoken[0], spoken[1])) if spoken else 'said: (no request said at this time)'
        print('-- %d. %s' % (r['label'], who))
        if 'at_ms' in r:
            print('   heard:    "%s"  (request %d, %s search, confidence %.2f)'
                  % (r.get('transcript', '?'), r['seq'], r.get('search', '?'), r.get('confidence', 0)))
        else:
            print('   heard:    (request %d: no final transcript logged)' % r['seq'])
        if r.get('note'):
            print('   note:     %s' % r['note'])
        if 'route' not in r:
            print('   not answered%s (see %s/sottod.log)' % (' (the brain failed)' if r.get('failed') else '', run_dir))
            continue
        flags = (' [%s]' % r['flags']) if r.get('flags') else ''
        print('   route:    %s (%s)%s' % (r['route'], r['reason'], flags))
        if r.get('decision'):
            print('   router:   %s' % r['decision'])
        if r['route'] == 'cloud':
            if cloud_i < len(audits):
                rec = audits[cloud_i]
                print('   sent:     "%s"  (to %s; `sotto audit`)' % (sent_user_text(rec.get('sent', '')),
                                                                      rec.get('host', '?')))
            else:
                print('   sent:     (no audit record for it)')
            cloud_i += 1
        else:
            print('   sent:     nothing left the device')
        answer = r.get('answer')
        if answer is None:
            print('   answer:   (not logged)')
        elif len(answer) > 150:
            print('   answer:   "%s..." (%d bytes)' % (answer[:150], r.get('bytes', len(answer))))
        else:
            print('   answer:   "%s"' % answer)
        lat = latency_line(r)
        if lat:
            print('   latency:  ' + lat)
        if 'seconds' in r:
            print('   spoken:   %.2f s%s%s' % (r['seconds'], ', stopped by the next wake word' if r.get('stopped')
                                               else '', (' -> ' + r['wav']) if r.get('wav') else ''))
    if len(audits) > cloud_i:
        print('\n   %d more escalated requests in the audit log' % (len(audits) - cloud_i))
    for n in notes:
        print('   sottod: %s' % n.split(': ', 1)[-1] if n.startswith(('info ', 'notice ')) else '   sottod: ' + n)
    print('   spoken answers: %s' % split_note)
    return heard


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True)
    ap.add_argument('--model', default='')
    ap.add_argument('--synthetic', default='1')
    ap.add_argument('runs', nargs='+', help='demo run folders (toolchain/main.sh demo_run)')
    a = ap.parse_args()

    if a.model and a.synthetic == '1':
        print('\nlocal model: synthetic SmolLM2-135M shape, RANDOM weights: a speed stand-in. Its answers, and the '
              'loopback cloud\'s (the same model), are gibberish by design.')
    elif not a.model:
        print('\nno local model: open questions cannot be answered on the device')
    print('transcripts are shown as the daemon logs them at debug level: personal data masked ([TYPE]); what was '
          'sent is from the audit log')
    reqs = []
    for d in a.runs:
        reqs += report_run(d, a.out, len(reqs) + 1)

    print()
    print('== per route: end of speech -> first audio p50/p95 (ms), endpoint delay and time to first text p50 (ms)')
    print('   %-8s %5s %8s %8s %10s %10s' % ('route', 'count', 'p50', 'p95', 'endpoint', 'first text'))
    routes = sorted({r['route'] for r in reqs if 'route' in r})
    for route in routes + ['all']:
        rs = [r for r in reqs if r.get('route') == route or (route == 'all' and 'route' in r)]
        lat = [r['after_speech_ms'] for r in rs if 'after_speech_ms' in r]
        ep = [r['endpoint_ms'] for r in rs if 'endpoint_ms' in r]
        ft = [r['first_text_ms'] for r in rs if r.get('first_text_ms', -1) >= 0]
        print('   %-8s %5d %8.0f %8.0f %10.0f %10.1f' % (route, len(rs), pct(lat, 50), pct(lat, 95),
                                                        statistics.median(ep) if ep else float('nan'),
                                                        statistics.median(ft) if ft else float('nan')))
    print('   (of a handful of requests, p95 is the slowest; sotto-bench measures distributions)')
    plot = a.out + '/latency.svg'
    if svg(reqs, plot):
        print('== plot: %s' % plot)
    print('== spoken answers: %s/answers/; logs: %s' % (a.out, ', '.join(d + '/sottod.log' for d in a.runs)))
    if not any('route' in r for r in reqs):
        print('main: no request was answered', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
