"""Bash write targets: the seed's table, the forms around it, and no crash on any input (reads and
writes). Read targets have their own table in test_touched_reads.py."""

from __future__ import annotations

import shlex
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.touched.bash import read_targets, shell_targets, write_targets

# The seed's table, measured on the reference implementation (bashWriteTargets): exact outputs.
SEED_ROWS = [
    ("cat > src/ui/Badge.tsx <<EOF", ["src/ui/Badge.tsx"]),
    ("sed -i '' 's/a/b/' src/ui/F.tsx", ["src/ui/F.tsx"]),
    ("echo hi | tee -a src/api/log.txt", ["src/api/log.txt"]),
    ('echo x > "src/my dir/a.ts"', ["src/my dir/a.ts"]),
    ("cp src/a.ts src/ui/b.ts", ["src/ui/b.ts"]),
    ("cp a.ts b.ts src/ui/", ["src/ui/"]),
    ("touch src/ui/New.tsx", ["src/ui/New.tsx"]),
    ("mkdir -p src/ui/sub", ["src/ui/sub"]),
    ("echo x > $OUT", []),
    ("echo x > /dev/null", []),
    ("rm src/ui/Old.tsx", []),
    ("python src/ui/gen.py", []),
]


@pytest.mark.parametrize(("command", "expected"), SEED_ROWS, ids=[r[0] for r in SEED_ROWS])
def test_seed_table(command: str, expected: list[str]) -> None:
    assert list(write_targets(command)) == expected


def test_rm_is_deliberately_unsupported() -> None:
    """`rm` reports nothing, by design and for good: once a file is deleted, the rules scoped to it
    serve no later step, so injecting them is pure waste. Adding rm support must turn this red."""
    assert write_targets("rm src/ui/Old.tsx") == ()
    assert write_targets("rm -rf src/ui/old/ src/api/x.ts") == ()
    assert write_targets("sudo rm -f src/ui/Old.tsx && git rm src/b.ts") == ()
    # A redirection on rm is still a write, of the log file only.
    assert write_targets("rm -v src/ui/Old.tsx > rm.log") == ("rm.log",)


REDIRECTIONS = [
    ("echo x>f", ["f"]),
    ("echo x >> log/a.txt", ["log/a.txt"]),
    ("echo x >| f", ["f"]),
    ("echo x &> f", ["f"]),
    ("echo x &>>f", ["f"]),
    ("echo x 1>f", ["f"]),
    ("make 2>err.log", ["err.log"]),
    ("make > out.log 2> err.log", ["out.log", "err.log"]),
    ("echo x >& both.log", ["both.log"]),
    ("echo x >&2", []),
    ("make 2>&1", []),
    ("make >out.log 2>&1", ["out.log"]),
    ("make 2>&-", []),
    ("echo x > 'a b.txt'", ["a b.txt"]),
    ("echo x > a\\ b.txt", ["a b.txt"]),
    ("echo x >'a'\"b\"c", ["abc"]),
    ('echo x > "$HOME/a"', []),
    ("echo x > `pwd`/a", []),
    ("echo x > $(mktemp)", []),
    ("echo x > out-${N}.txt", []),
    ("echo x > /tmp/y", ["/tmp/y"]),  # a project may live under /tmp: the boundary decides
    ("echo x > /tmp", ["/tmp"]),
    ("echo x > /dev/stderr", []),
    ("echo x > ~/notes.txt", []),
    ("echo x > *.log", []),
    ("echo x > a?.txt", []),
    ("echo x > 'a[1].txt'", []),
    ("echo x > -", []),
    ("echo $(date) > stamp.txt", ["stamp.txt"]),
    ('echo "$(echo "a b")" > o.txt', ["o.txt"]),
    ("cat < in.txt > out.txt", ["out.txt"]),
    ("cat <<< 'x > y' > out.txt", ["out.txt"]),
    ("{ echo a; echo b; } > f", ["f"]),
    ("( echo a ) > f", ["f"]),
    ("echo x > f # then > g", ["f"]),
    ("echo a#b > f", ["f"]),
]

HEREDOCS = [
    ("cat > f <<EOF\nx > g\nEOF", ["f"]),
    ("cat <<EOF > f\nx > g\nEOF\ntouch h", ["f", "h"]),
    ("cat <<'EOF' > f\ndon't > g\nEOF\ntouch h", ["f", "h"]),
    ('cat <<"EOF" > f\n$(touch g)\nEOF', ["f"]),
    ("cat <<-EOF > f\n\ttouch g\n\tEOF\ntouch h", ["f", "h"]),
    ("cat <<EOF > f; touch h\nbody > g\nEOF", ["f", "h"]),
    ("python - <<'PY'\nopen('x', 'w').write('1')\nPY", []),
    ("cat > f <<EOF\nno end > g", ["f"]),
]

CHAINS = [
    ("touch a\nrm b", ["a"]),
    ("touch a; touch b", ["a", "b"]),
    ("make && touch done.txt || touch failed.txt", ["done.txt", "failed.txt"]),
    ("npm test 2>&1 | tee test.log", ["test.log"]),
    ("nohup server > out.log 2>&1 &", ["out.log"]),
    ("(touch a) && touch b", ["a", "b"]),
    ("if true; then touch a; else touch b; fi", ["a", "b"]),
    ("for f in a b; do touch done-$f; done", []),
    ("touch a \\\n  b", ["a", "b"]),
    ("touch a b a", ["a", "b"]),
]

PREFIXES = [
    ("sudo tee /etc/hosts > /dev/null", ["/etc/hosts"]),
    ("sudo -u www tee -a log.txt", ["log.txt"]),
    ("sudo -E FOO=1 cp a b", ["b"]),
    ("sudo -e src/a.ts", []),
    ("env A=1 B=2 cp a b", ["b"]),
    ("env -i -u HOME touch x", ["x"]),
    ("env -C sub touch x", []),
    ("A=1 B=$(date) touch x", ["x"]),
    ("command cp a b", ["b"]),
    ("command -v touch x", []),
    ("nohup touch x", ["x"]),
    ("time cp a b", ["b"]),
    ("time -p touch x", ["x"]),
    ("nice -n 5 touch x", ["x"]),
    ("timeout 5 touch x", ["x"]),
    ("/usr/bin/touch x", ["x"]),
    ("\\cp a b", ["b"]),
    ("$EDITOR_CMD a b", []),
    ("xargs touch < list.txt", []),
]

PROGRAMS = [
    ("cp -r src/ dest/", ["dest/"]),
    ("cp a", []),
    ("cp a b 2>/dev/null", ["b"]),
    ("cp -t dest a b", ["dest"]),
    ("cp -tdest a b", ["dest"]),
    ("mv --target-directory=dest a b", ["dest"]),
    ("mv --target-directory dest a b", ["dest"]),
    ("mv -S .orig a b", ["b"]),
    ("mv a b -v", ["b"]),
    ("mv -- -a b", ["b"]),
    ("cp a $DEST", []),
    ("cp $SRC dest/", ["dest/"]),
    ("gcp a b", ["b"]),
    ("install -m 644 a bin/tool", ["bin/tool"]),
    ("install -D -m 0755 build/x /usr/local/bin/x", ["/usr/local/bin/x"]),
    ("install -d d1 d2", ["d1", "d2"]),
    ("install -t bin a b", ["bin"]),
    ("touch -r ref.txt new.txt", ["new.txt"]),
    ("touch -d '2 days ago' a b", ["a", "b"]),
    ("touch --date=now a", ["a"]),
    ("touch src/{a,b}.ts", []),
    ("touch *.ts", []),
    ("touch @(a|b)", []),
    ("mkdir a b/c", ["a", "b/c"]),
    ("mkdir -m 755 -p a", ["a"]),
    ("mkdir --mode=755 a", ["a"]),
    ("tee a b < in", ["a", "b"]),
    ("tee - a", ["a"]),
    ("tee", []),
    ("sed -i 's/a/b/' f", ["f"]),
    ("sed -i.bak 's/a/b/' f g", ["f", "g"]),
    ("sed -i -e 's/a/b/' -e 's/c/d/' f", ["f"]),
    ("sed -i '' -e 's/a/b/' f", ["f"]),
    ("sed -i .bak 's/a/b/' f", ["f"]),
    ("sed --in-place=.bak --expression=s/a/b/ f", ["f"]),
    ("sed -ni 's/a/b/p' f", ["f"]),
    ("sed -E -i 's/(a)/b/' f", ["f"]),
    ("sed -i -f script.sed f", ["f"]),
    ("sed -n 's/a/b/p' f", []),
    ("sed 's/a/b/' f > g", ["g"]),
    ("sed -i 's/a/b/'", []),
    ("sed -i 's/a/b/' -", []),
    ('sed -i "s/$a/b/" f', ["f"]),
    ("sed -i $EXPR f", []),
    ("gsed -i 's/a/b/' f", ["f"]),
    ("bash -c 'echo hi > out.txt'", ["out.txt"]),
    ('bash -lc "touch a && cp a b"', ["a", "b"]),
    ("sh -e -c 'touch x'", ["x"]),
    ("bash -o pipefail -c 'touch x'", ["x"]),
    ("bash script.sh", []),
    ('bash -c "$CMD"', []),
    ("python src/ui/gen.py --out src/ui/out.ts", []),
    ("ln -s a b", []),
    ("git mv a b", []),
    ("dd if=/dev/zero of=disk.img", []),
]

DIRECTORY_CHANGES = [
    ("mkdir -p a/b && cd a/b && touch c", ["a/b", "a/b/c"]),
    ("cd src && echo x > a.ts", ["src/a.ts"]),
    ("cd /abs/proj && touch a", ["/abs/proj/a"]),
    ("cd /tmp && touch a", ["/tmp/a"]),
    ("cd $DIR && touch a /abs/b", ["/abs/b"]),
    ("cd && touch a", []),
    ("cd - && touch a", []),
    ("(cd sub; touch a); touch b", ["sub/a", "b"]),
    ("cd sub | true; touch a", ["a"]),
    ("pushd sub && touch a && popd && touch b", ["sub/a"]),
    ("cd sub && echo x | tee - log", ["sub/log"]),
    ("echo x > log.txt && cd sub > ../log2.txt", ["log.txt", "../log2.txt"]),
]

# `>` and `<` that are not redirections.
COMPARISONS = [
    ("if (( n > 5 )); then touch a; fi", ["a"]),
    ("for ((i=0; i<3; i++)); do touch f; done", ["f"]),
    ("[[ $a > b ]] && touch c", ["c"]),
    ("if [[ a < b || c > d ]]; then echo x > e; fi", ["e"]),
    ("echo $(( 3 > 2 )) > r.txt", ["r.txt"]),
    ("awk '$1 > 5' data.txt > big.txt", ["big.txt"]),
    ("[ a > b ]", ["b"]),  # in single brackets `>` really is a redirection: bash creates b
    ("diff <(ls a) <(ls b)", []),
    ("tee >(gzip > out.gz) > /dev/null", ["out.gz"]),
]

QUOTING_AND_ERRORS = [
    ("echo 'unterminated > f", []),
    ('echo "unterminated > f', []),
    ("echo $(unterminated > f", []),
    ("echo `unterminated > f", []),
    ("echo 'cp a b' > f", ["f"]),
    ("git commit -m 'x > y'", []),
    ("echo \"a;b\" > 'c d'", ["c d"]),
    ('echo x > "a\'b"', ["a'b"]),
    ("echo x > $'a\\tb'", []),
    ("((a)", []),
    ("x=$(cat > f)", []),
    ("echo > ", []),
    ("> f", ["f"]),
    ("touch a\r\ntouch b\r\n", ["a", "b"]),
    ("", []),
]


@pytest.mark.parametrize(
    ("command", "expected"),
    REDIRECTIONS
    + HEREDOCS
    + CHAINS
    + PREFIXES
    + PROGRAMS
    + DIRECTORY_CHANGES
    + COMPARISONS
    + QUOTING_AND_ERRORS,
    ids=lambda v: repr(v) if isinstance(v, str) else "",
)
def test_forms(command: str, expected: list[str]) -> None:
    assert list(write_targets(command)) == expected


def test_heredoc_body_is_data_never_paths() -> None:
    body = "touch evil\necho x > evil2\ncp a evil3\nsed -i s/a/b/ evil4\nmkdir evil5\n"
    assert write_targets(f"cat > notes.md <<'EOF'\n{body}EOF") == ("notes.md",)
    assert write_targets(f"cat > notes.md <<EOF\n{body}EOF\ntouch after") == ("notes.md", "after")


def test_not_a_string_reports_nothing() -> None:
    assert write_targets(None) == ()  # type: ignore[arg-type]
    assert write_targets(["touch", "a"]) == ()  # type: ignore[arg-type]


def test_deep_nesting_neither_recurses_forever_nor_reports() -> None:
    assert write_targets("echo " + "$(" * 5000 + ")" * 5000 + " > f") == ("f",)
    nested = "touch x"
    for _ in range(10):
        nested = f"bash -c {shlex.quote(nested)}"
    assert write_targets(nested) == ()


SHELL_TOKENS = st.sampled_from(
    ["echo", "cat", "cp", "mv", "install", "touch", "mkdir", "tee", "sed", "-i", "''", "-e", "-t", "rm",
     "sudo", "env", "A=1", "cd", "bash", "-c", ">", ">>", ">|", "&>", "2>", "2>&1", ">&", "<", "<<",
     "<<-", "<<<", "EOF", "'EOF'", "|", "||", "&&", ";", "&", "(", ")", "{", "}", "\n", "\\", "'", '"',
     "$", "$(", "`", "${", "#", "*", "~", "-", "--", "a", "src/a.ts", "/tmp/x", "/dev/null", "dir/",
     "'q u'", '"d q"', "$OUT", "\t", "\r", "head", "-n", "20", "rg", "grep", "-rn", "ls", "find", "-name",
     "less", "+F", "wc", "nl", "-ba", "--", "--files"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_never_raises_on_any_text(command: str) -> None:
    result = shell_targets(command)
    assert isinstance(result, tuple)
    assert all(isinstance(p, str) and p for p in result)


@settings(max_examples=300, deadline=None)
@given(st.lists(SHELL_TOKENS, max_size=30).map(" ".join))
def test_token_soup_never_raises_and_never_reports_forbidden_paths(command: str) -> None:
    assert set(write_targets(command)) | set(read_targets(command)) == set(shell_targets(command))
    for path in shell_targets(command):
        assert not set(path) & set("$`*?[]"), path
        assert path != "-"
        assert not path.startswith("/dev/") and path != "/dev"


SAFE_PATHS = st.text(alphabet=string.ascii_letters + string.digits + "._-/ ", min_size=1, max_size=30).filter(
    lambda p: p != "-" and not p.startswith(("/dev", "-"))
)


@settings(max_examples=200, deadline=None)
@given(SAFE_PATHS, st.sampled_from([">", ">>", ">|", "&>", "2>"]))
def test_any_quoted_literal_path_round_trips(path: str, redirect: str) -> None:
    assert write_targets(f"echo x {redirect} {shlex.quote(path)}") == (path,)
    assert write_targets(f"touch -- {shlex.quote(path)}") == (path,)
