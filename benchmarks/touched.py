"""Mean time of `write_targets` over the seed's bash table, against `shlex.split` in the same run.

    python benchmarks/touched.py [--rounds N]

`shlex.split` only tokenizes (and misreads heredocs, newlines and `2>`), so the ratio says what the
full analysis costs over the cheapest stdlib reading of the same commands.
"""

from __future__ import annotations

import argparse
import shlex
import time
from collections.abc import Callable

from jitctx.touched.bash import write_targets

SEED_COMMANDS = [
    "cat > src/ui/Badge.tsx <<EOF",
    "sed -i '' 's/a/b/' src/ui/F.tsx",
    "echo hi | tee -a src/api/log.txt",
    'echo x > "src/my dir/a.ts"',
    "cp src/a.ts src/ui/b.ts",
    "cp a.ts b.ts src/ui/",
    "touch src/ui/New.tsx",
    "mkdir -p src/ui/sub",
    "echo x > $OUT",
    "echo x > /dev/null",
    "rm src/ui/Old.tsx",
    "python src/ui/gen.py",
]


def _baseline(command: str) -> object:
    try:
        return shlex.split(command)
    except ValueError:  # the heredoc row has no body, but a real one could hold an unbalanced quote
        return None


def mean_us(function: Callable[[str], object], rounds: int) -> float:
    start = time.perf_counter()
    for _ in range(rounds):
        for command in SEED_COMMANDS:
            function(command)
    return (time.perf_counter() - start) / (rounds * len(SEED_COMMANDS)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=7, help="best of this many interleaved runs")
    args = parser.parse_args()
    mean_us(write_targets, 50)  # warm caches and the regex compiler before measuring either side
    ours, baseline = [], []
    for _ in range(args.repeats):  # interleaved, so a busy machine slows both sides alike
        ours.append(mean_us(write_targets, args.rounds))
        baseline.append(mean_us(_baseline, args.rounds))
    print(f"commands: {len(SEED_COMMANDS)} seed rows x {args.rounds} rounds, best of {args.repeats}")
    print(f"write_targets  {min(ours):8.2f} us/command")
    print(f"shlex.split    {min(baseline):8.2f} us/command")
    print(f"ratio          {min(ours) / min(baseline):8.2f}x")


if __name__ == "__main__":
    main()
