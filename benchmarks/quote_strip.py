"""Quote stripping grows linearly with the mail: 10 kB, 100 kB, 1 MB of hostile text.

For each shape of text a hostile or careless sender can write, pbem's
`new_text` (quotes, attributions, history and signature removed) is timed
beside a floor measured in the same run: splitting the text into lines and
testing each for a leading '>', the least any quote stripper does. Linear
growth shows as a time about 10 times larger for a text 10 times larger, and
a ratio to the floor that stays flat.

    python benchmarks/quote_strip.py [--sizes 10000,100000,1000000]
"""

import argparse
import sys
import time

from pbem.mail.parse import new_text, reply_text


def shapes(size: int) -> dict:
    """Texts of about `size` characters, each a shape that was once slow."""
    half = size // 2
    return {
        "blank lines, then quoted lines": "\n" * half + "> quoted\n" * (half // 9),
        "blank and quoted lines, alternating": "\n> q\n" * (size // 5),
        "one long line, then quoted lines": "z" * half + "\n" + "> q\n" * (half // 4),
        "attribution above each quote": "On Monday, Ann wrote:\n> q\nok\n" * (size // 29),
        "a flowed paragraph": "word " * (size // 5),
        "HTML: unclosed tags": "<a" * half,
        "HTML: unclosed comments": "<!--" * (size // 4),
    }


def best(run, repeat: int = 5) -> float:
    """The fastest of a few runs, in seconds."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def floor(text: str) -> int:
    """The least a quote stripper does: every line, tested for a leading '>'."""
    return sum(line.lstrip().startswith(">") for line in text.split("\n"))


def main(argv=None) -> int:
    """Time pbem and the floor on each shape at each size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000",
                        help="text sizes in characters, comma-separated")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'shape':38} {'size':>9} {'pbem ms':>9} {'floor ms':>9} {'ratio':>7} {'growth':>7}")
    for name in shapes(10):
        previous = None
        for size in sizes:
            text = shapes(size)[name]
            html = name.startswith("HTML")
            pbem = best(lambda: reply_text(text, html=True) if html else new_text(text))
            base = best(lambda: floor(text))
            growth = f"{pbem / previous:6.1f}x" if previous else "      -"
            print(f"{name:38} {len(text):>9} {pbem * 1000:9.2f} {base * 1000:9.2f} "
                  f"{pbem / base:6.1f}x {growth}")
            previous = pbem
    return 0


if __name__ == "__main__":
    sys.exit(main())
