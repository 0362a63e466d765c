"""Generate a synthetic monorepo for benchmarks: many files, nested directories, instruction files, rules.

    python benchmarks/synth.py DIR --files 100000 --dirs 10000 --depth 6 --instructions 200 --rules 30

The tree is deterministic for given parameters (seeded), committed to git when --git is given, and a
few files are then changed and added so that `git status` has something to report.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Shape:
    files: int = 100_000
    dirs: int = 10_000
    depth: int = 6
    instructions: int = 200
    rules: int = 30
    seed: int = 7


def directories(shape: Shape, rng: random.Random) -> list[str]:
    """`shape.dirs` relative directory paths forming a tree no deeper than `shape.depth`."""
    dirs: list[str] = ["src", "docs", "packages", "tools"]
    while len(dirs) < shape.dirs:
        parent = rng.choice(dirs)
        if parent.count("/") + 1 >= shape.depth:
            continue
        dirs.append(f"{parent}/d{len(dirs)}")
    return dirs


def generate(root: Path, shape: Shape, *, use_git: bool = True) -> list[str]:
    """Write the tree; return the relative paths of its ordinary files."""
    rng = random.Random(shape.seed)
    root.mkdir(parents=True, exist_ok=True)
    dirs = directories(shape, rng)
    for directory in dirs:
        (root / directory).mkdir(parents=True, exist_ok=True)
    extensions = [".ts", ".tsx", ".py", ".md", ".go", ".json"]
    files: list[str] = []
    for index in range(shape.files):
        rel = f"{rng.choice(dirs)}/f{index}{rng.choice(extensions)}"
        files.append(rel)
        with open(root / rel, "w", encoding="utf-8") as handle:
            handle.write(f"// file {index}\n")
    (root / "CLAUDE.md").write_text("# Root rules\n" + "Keep changes small.\n" * 40, encoding="utf-8")
    (root / "AGENTS.md").write_text("# Agents\nRun the tests.\n", encoding="utf-8")
    for index, directory in enumerate(rng.sample(dirs, min(shape.instructions, len(dirs)))):
        name = rng.choice(["CLAUDE.md", "AGENTS.md"])
        scoped = index % 3 == 0
        front = f'---\npaths: ["{directory}/**/*.ts"]\n---\n' if scoped else ""
        (root / directory / name).write_text(front + f"# Rules for {directory}\n" + "Rule.\n" * 20, "utf-8")
    rules_dir = root / ".claude" / "rules"
    rules_dir.mkdir(parents=True, exist_ok=True)
    for index in range(shape.rules):
        target = rng.choice(dirs)
        (rules_dir / f"rule{index}.md").write_text(
            f'---\npaths: ["{target}/**"]\n---\nRule {index}\n', encoding="utf-8"
        )
    if use_git:
        git(root, "init", "-q")
        git(root, "add", "-A")
        git(
            root, "-c", "user.email=b@example.invalid", "-c", "user.name=bench", "commit", "-q", "-m", "synth"
        )
        for rel in rng.sample(files, 20):
            with open(root / rel, "a", encoding="utf-8") as handle:
                handle.write("// changed\n")
        for index in range(10):
            (root / rng.choice(dirs) / f"new{index}.py").write_text("x = 1\n", encoding="utf-8")
    settle(root)
    return files


def settle(root: Path, age: float = 60.0) -> None:
    """Date every directory `age` seconds back, as in a repository written before the session began.

    jitctx looks again at a directory changed within the last two seconds on every touch (its mtime could
    hide a file created in the same clock tick); a tree measured the moment it was generated would
    measure that, which a real repository seldom is.
    """
    when = time.time_ns() - int(age * 1e9)
    for current, dirnames, _ in os.walk(root):
        if ".git" in dirnames:
            dirnames.remove(".git")
        for name in dirnames:
            os.utime(os.path.join(current, name), ns=(when, when))
    os.utime(root, ns=(when, when))


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("dir", type=Path)
    for field_name, default in Shape().__dict__.items():
        parser.add_argument(f"--{field_name}", type=int, default=default)
    parser.add_argument("--no-git", action="store_true")
    args = parser.parse_args(argv)
    if args.dir.exists() and any(args.dir.iterdir()):
        print(f"{args.dir} is not empty; choose a new directory", file=sys.stderr)
        return 2
    shape = Shape(**{k: getattr(args, k) for k in Shape().__dict__})
    generate(args.dir, shape, use_git=not args.no_git)
    count = sum(len(f) for _, _, f in os.walk(args.dir / "src"))
    print(f"wrote {args.dir} ({count} files under src/)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
