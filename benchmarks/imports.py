# ruff: noqa: RUF001
"""Expanding a 30 KB instruction file with 20 @imports: cold and cached, against a naive reference.

    python benchmarks/imports.py [--runs 200] [--size 30000] [--imports 20]

The reference is what an import expander without Markdown awareness does: one regex over the raw text
(the seed's, CJK punctuation included) and a plain `open().read()` of each target. It is timed in the
same process, so the ratios compare like with like on whatever machine runs this. Targets (issue 4):
cached <= 1 ms, cold <= 30 ms.

- cold: caches cleared (`jitctx.imports.clear_caches()`) before each run; the parser module is loaded.
- fresh process: a new interpreter imports jitctx.imports, then markdown-it, then expands once; each step
  is timed inside that process (the interpreter's own start is not counted).
- cached: the same expansion again with warm caches (files unchanged, so only stats and lookups).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from jitctx.imports import clear_caches, expand

PROSE = (
    "Keep components pure and pass `width` explicitly; "
    "组件必须是纯函数，宽度通过参数传入，不要在组件里读终端尺寸。"
    "Errors are reported with the file and line, and the fix. "
)
CODE = "```python\n@dataclass(frozen=True)\nclass Rule:\n    name: str  # see @not-an-import.md\n```\n"


def build(root: Path, size: int, imports: int) -> Path:
    """A main file of about `size` bytes with `imports` imports, each target about 1 KB."""
    docs = root / "docs"
    docs.mkdir(parents=True)
    for index in range(imports):
        (docs / f"part{index}.md").write_text(f"# Part {index}\n\n" + PROSE * 4 + "\n", encoding="utf-8")
    sections: list[str] = []
    index = 0
    while len("".join(sections).encode("utf-8")) < size:
        section = f"## Section {len(sections)}\n\n{PROSE * 3}\n\n"
        if index < imports:
            section += f"Details: @docs/part{index}.md，然后继续。\n\n"
            index += 1
        if len(sections) % 4 == 0:
            section += CODE + "\n"
        sections.append(section)
    main = root / "CLAUDE.md"
    main.write_text("".join(sections), encoding="utf-8")
    return main


CJK = "，。、；：！？（）【】「」『』〈〉《》〔〕“”‘’…—～·"
NAIVE = re.compile(rf"(?:^|[\s{CJK}])@([^\s{CJK}]+)", re.MULTILINE)


def naive(main: Path) -> int:
    text = main.read_text(encoding="utf-8")
    total = len(text)
    for match in NAIVE.finditer(text):
        target = main.parent / match.group(1).rstrip(".,;:!?")
        try:
            total += len(target.read_text(encoding="utf-8"))
        except OSError:
            pass
    return total


def timed(
    action: Callable[[], object], runs: int, before: Callable[[], None] | None = None
) -> tuple[float, float]:
    """Median and best wall time of `runs` calls, in milliseconds (best: least disturbed by other load)."""
    samples: list[float] = []
    for _ in range(runs):
        if before is not None:
            before()
        started = time.perf_counter()
        action()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples), min(samples)


FRESH = """
import sys, time
started = time.perf_counter()
from jitctx.imports import expand
imported = time.perf_counter()
import markdown_it  # expand would import it lazily; timed apart to show what the parser's import costs
parser = time.perf_counter()
main = sys.argv[1]
text = open(main, encoding="utf-8").read()
result = expand(text, main, root=sys.argv[2])
done = time.perf_counter()
print((imported - started) * 1000, (parser - imported) * 1000, (done - parser) * 1000)
"""


def fresh_process(main: Path, root: Path, runs: int) -> tuple[float, float, float]:
    """Medians (ms) of: importing jitctx.imports, importing markdown-it, the first expansion."""
    samples: list[list[float]] = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", FRESH, str(main), str(root)], check=True, capture_output=True, text=True
        ).stdout.split()
        samples.append([float(x) for x in out])
    imports, parser, expansion = zip(*samples, strict=True)
    return statistics.median(imports), statistics.median(parser), statistics.median(expansion)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--size", type=int, default=30_000)
    parser.add_argument("--imports", type=int, default=20)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        main_file = build(root, args.size, args.imports)
        text = main_file.read_text(encoding="utf-8")

        def run() -> int:
            result = expand(text, main_file, root=root)
            assert len(result.included) == args.imports, result.warnings
            return result.expanded_bytes

        size = run()  # loads the parser once, outside every timing
        reference = timed(lambda: naive(main_file), args.runs)
        cold = timed(run, args.runs, before=clear_caches)
        cached = timed(run, args.runs)
        import_ms, parser_ms, fresh_ms = fresh_process(main_file, root, max(3, args.runs // 10))

    print(f"main file         {len(text.encode('utf-8')):,} bytes, {args.imports} imports, "
          f"expanded {size:,} bytes")  # fmt: skip
    print("                  median     best     median vs reference")
    for name, (median, best), target in (
        ("naive reference", reference, "(regex + plain reads)"),
        ("cold", cold, "target <= 30 ms"),
        ("cached", cached, "target <= 1 ms"),
    ):
        ratio = median / reference[0]
        print(f"{name:16}  {median:6.3f} ms  {best:6.3f} ms  {ratio:5.2f}x   {target}")
    print(
        f"fresh process     {fresh_ms:8.3f} ms  first expansion, after {import_ms:.1f} ms importing "
        f"jitctx.imports and {parser_ms:.1f} ms importing markdown-it"
    )
    load = os.getloadavg()[0]
    print(f"machine           {os.cpu_count()} CPUs, load {load:.1f}, Python {sys.version.split()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
