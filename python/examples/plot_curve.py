"""Plot the learning curve written by learn_autoscooter.py as an SVG (no plotting library).

    python python/examples/plot_curve.py target/learn/curve.json docs/python-learning-curve.svg
"""
import json
import sys


def svg(curve, random_rate=None, w=640, h=360, m=50):
    xs = [p["games"] for p in curve]
    ys = [p["win_rate"] for p in curve]
    x0, x1 = 0, max(xs)

    def px(x):
        return m + (w - 2 * m) * (x - x0) / (x1 - x0)

    def py(y):
        return h - m - (h - 2 * m) * y

    pts = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(xs, ys))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<line x1="{m}" y1="{h - m}" x2="{w - m}" y2="{h - m}" stroke="black"/>',
           f'<line x1="{m}" y1="{m}" x2="{m}" y2="{h - m}" stroke="black"/>']
    for t in (0, 0.25, 0.5, 0.75, 1.0):
        out.append(f'<text x="{m - 8}" y="{py(t) + 4:.1f}" text-anchor="end">{t:.2f}</text>')
        out.append(f'<line x1="{m}" y1="{py(t):.1f}" x2="{w - m}" y2="{py(t):.1f}" stroke="#ddd"/>')
    for x in xs[:: max(1, len(xs) // 5)] + [xs[-1]]:
        out.append(f'<text x="{px(x):.1f}" y="{h - m + 16}" text-anchor="middle">{x}</text>')
    if random_rate is not None:
        out.append(f'<line x1="{m}" y1="{py(random_rate):.1f}" x2="{w - m}" y2="{py(random_rate):.1f}" '
                   f'stroke="#c33" stroke-dasharray="4 3"/>')
        out.append(f'<text x="{w - m}" y="{py(random_rate) - 4:.1f}" text-anchor="end" fill="#c33">random vs random</text>')
    out.append(f'<polyline points="{pts}" fill="none" stroke="#1565c0" stroke-width="2"/>')
    out.append(f'<text x="{w / 2}" y="{h - 12}" text-anchor="middle">training games (vs the random bot)</text>')
    out.append(f'<text x="{m}" y="{m - 14}">Autoscooter: win rate over each 100 training games (sampling policy)</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    src = sys.argv[1] if len(sys.argv) > 1 else "target/learn/curve.json"
    dst = sys.argv[2] if len(sys.argv) > 2 else "target/learn/curve.svg"
    rate = float(sys.argv[3]) if len(sys.argv) > 3 else None
    with open(src) as f:
        curve = json.load(f)
    with open(dst, "w") as f:
        f.write(svg(curve, rate))
    print(f"wrote {dst}")
