"""Cost of prompt assembly: a system-prompt rebuild with N JIT blocks, and fitting files to a 64 KiB budget.

    python benchmarks/assemble.py [--blocks 50] [--block-bytes 2000] [--runs 200]

Each figure is the median of `--runs`, with a reference measured in the same run: a rebuild is compared to
the bare string concatenation a host does anyway (`static + dynamic`), and a budget fit to encoding the
same files to UTF-8 once.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from jitctx.assemble import PromptAssembler, fit_budget


def median_seconds(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--blocks", type=int, default=50)
    parser.add_argument("--block-bytes", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()

    static = "You are a coding agent. " * 400
    dynamic = "Today is 2026-08-08. Git status: clean."
    texts = [f"规则 rule {i}. " * (args.block_bytes // 16) for i in range(args.blocks)]
    assembler = PromptAssembler(static, dynamic)
    for i, text in enumerate(texts):
        assembler.add_block(f"pkg{i}/AGENTS.md", text)
    rebuilt = f"{static}\n\n{dynamic}"

    reference = median_seconds(lambda: (static + "\n\n" + dynamic).encode(), args.runs)
    rebuild = median_seconds(lambda: assembler.set_system_prompt(rebuilt), args.runs)
    prompt_kib = len(assembler.system_prompt.encode()) / 1024
    print(f"rebuild with {args.blocks} blocks ({prompt_kib:.0f} KiB prompt): {rebuild * 1e3:.3f} ms")
    print(f"  reference concat+encode: {reference * 1e3:.4f} ms  ratio {rebuild / reference:.0f}x")

    files = [(f"pkg{i}/AGENTS.md", text) for i, text in enumerate(texts)]
    encode = median_seconds(lambda: [t.encode() for _, t in files], args.runs)
    fit = median_seconds(lambda: fit_budget(files, 64 * 1024, style="dsh"), args.runs)
    result = fit_budget(files, 64 * 1024, style="dsh")
    print(
        f"fit {len(files)} files to 64 KiB: {fit * 1e3:.3f} ms "
        f"({len(result.kept)} kept, {len(result.dropped)} dropped, payload {result.payload_bytes} B)"
    )
    print(f"  reference encode: {encode * 1e3:.4f} ms  ratio {fit / encode:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
