#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The latency harness's pictures (sotto-bench e2e), as plain SVG: the distribution of end of speech -> first audio
# per profile (empirical CDF), and the waterfall of one request's stages per profile (its median request).
# Standard library only.

COLOURS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f"]
STAGES = [("endpoint_delay", "endpoint delay", "#9e9e9e"),
          ("asr_final_lag", "ASR final lag", "#bab0ac"),
          ("ttft", "first token (text)", "#4e79a7"),
          ("tts_first_chunk", "TTS first chunk", "#f28e2b")]


def esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def nice_step(span):
    for step in (10, 20, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000):
        if span / step <= 10:
            return step
    return 20000


def cdf_svg(series, path, title):
    """series: [(profile, [rtt ms ...])]; one step curve per profile with at least one value. False if none."""
    series = [(name, sorted(v)) for name, v in series if v]
    if not series:
        return False
    xmax = max(v[-1] for _, v in series) * 1.05 or 1.0
    x0, y0, w, h = 60, 40, 640, 300
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">'
           % (x0 + w + 190, y0 + h + 50),
           '<text x="10" y="20" font-size="14">%s</text>' % esc(title)]
    step = nice_step(xmax)
    t = 0
    while t <= xmax:
        x = x0 + t / xmax * w
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/><text x="%.1f" y="%d" '
                   'text-anchor="middle">%d</text>' % (x, y0, x, y0 + h, x, y0 + h + 15, t))
        t += step
    for q, label in ((0, "0%"), (0.5, "p50"), (0.95, "p95"), (0.99, ""), (1.0, "100%")):
        y = y0 + h - q * h
        # p99 sits 3 px under 100 %: its line is drawn, its label would overlap.
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s"/><text x="%d" y="%.1f" '
                   'text-anchor="end">%s</text>' % (x0, y, x0 + w, y, "#bbb" if 0 < q < 1 else "#ddd",
                                                    x0 - 4, y + 4, label))
    out.append('<text x="%d" y="%d" text-anchor="middle">ms from the end of speech to the first audio</text>'
               % (x0 + w // 2, y0 + h + 35))
    for i, (name, vals) in enumerate(series):
        c = COLOURS[i % len(COLOURS)]
        pts = ["%.1f,%.1f" % (x0, y0 + h)]
        n = len(vals)
        for k, v in enumerate(vals):
            x = x0 + v / xmax * w
            pts.append("%.1f,%.1f" % (x, y0 + h - k / n * h))
            pts.append("%.1f,%.1f" % (x, y0 + h - (k + 1) / n * h))
        pts.append("%.1f,%.1f" % (x0 + w, y0))
        out.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (c, " ".join(pts)))
        out.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/><text x="%d" y="%d">%s (n=%d)</text>'
                   % (x0 + w + 15, y0 + i * 18, c, x0 + w + 32, y0 + i * 18 + 11, esc(name), n))
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return True


def median_request(records):
    """The request whose round trip is the median of those measured with every stage (None when there is none)."""
    full = [r for r in records if r.get("rtt") is not None and all(r.get(k) is not None for k, _, _ in STAGES)]
    if not full:
        return None
    full.sort(key=lambda r: r["rtt"])
    return full[(len(full) - 1) // 2]


def waterfall_svg(picks, path):
    """picks: [(profile, record)]; per profile the record's stages as consecutive bars from the end of speech,
    and where the first audio was heard in the playback. False when there is nothing to draw."""
    if not picks:
        return False
    ends = []
    for _, r in picks:
        t = 0.0
        for k, _, _ in STAGES:
            t += max(0.0, r[k])
        ends.append(max(t, r["rtt"]))
    xmax = max(ends) * 1.1 or 1.0
    x0, w, bar = 230, 600, 16
    rows = sum(len(STAGES) + 2 for _ in picks)
    h = 60 + rows * bar + 30
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">'
           % (x0 + w + 120, h),
           '<text x="10" y="20" font-size="14">One request per profile (its median round trip): stages from the end '
           'of speech (ms)</text>']
    step = nice_step(xmax)
    t = 0
    while t <= xmax:
        x = x0 + t / xmax * w
        out.append('<line x1="%.1f" y1="35" x2="%.1f" y2="%d" stroke="#eee"/><text x="%.1f" y="%d" '
                   'text-anchor="middle">%d</text>' % (x, x, h - 25, x, h - 10, t))
        t += step
    y = 45
    for (prof, r), _ in zip(picks, ends):
        label = '%s: said "%s", heard "%s" (%s, %s) -> %s' % (prof, r.get("text", ""), r.get("transcript") or "?",
                                                            r.get("voice", "?"), r.get("condition", "?"),
                                                            r.get("route", "?"))
        out.append('<text x="10" y="%d" font-weight="bold">%s</text>' % (y + 12, esc(label[:130])))
        y += bar
        t = 0.0
        for k, name, c in STAGES:
            v = max(0.0, r[k])
            out.append('<text x="20" y="%d">%s</text>' % (y + 12, esc(name)))
            out.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s %.1f ms</title></rect>'
                       '<text x="%.1f" y="%d">%.0f</text>'
                       % (x0 + t / xmax * w, y + 2, max(1.0, v / xmax * w), bar - 4, c, esc(name), v,
                          x0 + (t + v) / xmax * w + 4, y + 12, v))
            t += v
            y += bar
        xa = x0 + r["rtt"] / xmax * w
        out.append('<text x="20" y="%d">first audio (playback)</text><line x1="%.1f" y1="%d" x2="%.1f" y2="%d" '
                   'stroke="#e15759" stroke-width="2"/><text x="%.1f" y="%d" fill="#e15759">%.0f ms</text>'
                   % (y + 12, xa, y - len(STAGES) * bar, xa, y + bar - 2, xa + 4, y + 12, r["rtt"]))
        y += bar
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return True
