"""Every accepted shape of a scope, the unquoted-glob recovery, and frontmatter that cannot be read."""

from __future__ import annotations

import json

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from jitctx.frontmatter import _json_lines, scope_of, split_frontmatter

KEYS = ("paths", "globs", "applyTo", "fileMatchPattern")

SHAPES = [
    ('paths:\n  - "src/ui/**"\n  - "src/ink/**"', ("src/ui/**", "src/ink/**")),  # YAML list
    ('paths: ["src/ui/**", "src/ink/**"]', ("src/ui/**", "src/ink/**")),  # flow list
    ("paths: |\n  src/api/**/*.ts\n  src/services/**/*.ts", ("src/api/**/*.ts", "src/services/**/*.ts")),
    ('paths: "src/ui/**, docs/**"', ("src/ui/**", "docs/**")),  # comma-separated string
    ('paths: "src/{a,b}/*.ts, docs/**"', ("src/{a,b}/*.ts", "docs/**")),  # commas inside braces stay
    ("globs: src/**/*.tsx", ("src/**/*.tsx",)),  # Cursor
    ('applyTo: "**/*.py"', ("**/*.py",)),  # Copilot
    ('inclusion: fileMatch\nfileMatchPattern: "docs/**"', ("docs/**",)),  # Kiro
    ("paths: src/ui/**", ("src/ui/**",)),  # plain scalar that happens to be valid YAML
]


@pytest.mark.parametrize(("front", "patterns"), SHAPES)
def test_scope_shapes(front: str, patterns: tuple[str, ...]) -> None:
    parsed = split_frontmatter(f"---\n{front}\n---\n# Body\n")
    assert parsed.error is None
    assert parsed.data is not None
    assert scope_of(parsed.data, KEYS).patterns == patterns
    assert parsed.body == "# Body\n"


@pytest.mark.parametrize(
    ("front", "patterns"),
    [
        ("paths: **/*.ts", ("**/*.ts",)),
        ("paths:\n  - **/*.ts\n  - src/*.py", ("**/*.ts", "src/*.py")),
        ("description: x\nglobs: *.tsx, *.ts", ("*.tsx", "*.ts")),
    ],
)
def test_unquoted_glob_is_recovered_and_flagged(front: str, patterns: tuple[str, ...]) -> None:
    parsed = split_frontmatter(f"---\n{front}\n---\nbody")
    assert parsed.recovered
    assert parsed.data is not None
    assert scope_of(parsed.data, KEYS).patterns == patterns


def test_frontmatter_that_cannot_be_read() -> None:
    parsed = split_frontmatter("---\npaths: [unclosed\n  : : :\n---\nbody")
    assert parsed.present and parsed.data is None
    assert parsed.error is not None and "not valid YAML" in parsed.error


def test_frontmatter_that_never_closes() -> None:
    parsed = split_frontmatter("---\npaths: ['src/**']\nbody without end")
    assert parsed.present and parsed.data is None
    assert parsed.error is not None and "never closes" in parsed.error


def test_a_list_at_top_level_is_not_frontmatter_data() -> None:
    parsed = split_frontmatter("---\n- a\n- b\n---\nbody")
    assert parsed.error is not None and "mapping" in parsed.error


def test_no_frontmatter() -> None:
    parsed = split_frontmatter("# Title\n---\nnot frontmatter\n")
    assert not parsed.present and parsed.body.startswith("# Title")


@pytest.mark.parametrize("value", ["[]", '""', ""])
def test_empty_scope_means_no_scope(value: str) -> None:
    parsed = split_frontmatter(f"---\npaths: {value}\n---\nbody")
    assert parsed.data is not None
    assert scope_of(parsed.data, KEYS).patterns == ()


def test_non_string_items_are_an_error() -> None:
    parsed = split_frontmatter("---\npaths: [1, 2]\n---\nbody")
    assert parsed.data is not None
    spec = scope_of(parsed.data, KEYS)
    assert spec.error is not None and "quote each glob" in spec.error


def test_the_first_known_key_wins() -> None:
    parsed = split_frontmatter('---\nglobs: "b/**"\npaths: "a/**"\n---\n')
    assert parsed.data is not None
    assert scope_of(parsed.data, KEYS).patterns == ("a/**",)


# -- the JSON fast path: wherever it answers, YAML must answer the same --------------------------------

_KEYS = st.sampled_from(["paths", "globs", "applyTo", "alwaysApply", "on", "No", "null", "y", "_k", "a-b"])
_TEXT = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=12)
_VALUES = st.one_of(
    st.builds(json.dumps, _TEXT),
    st.builds(json.dumps, st.lists(_TEXT, max_size=4)),
    st.builds(json.dumps, st.lists(st.one_of(_TEXT, st.integers(), st.booleans()), max_size=3)),
    st.sampled_from(["true", "false", "True", "yes", "1e5", "null", "~", "", '["x", 1e5]']),
    _TEXT,
)
# A line with no key is a blank one: of spaces (YAML skips it), or of other white space (YAML refuses it).
_BLANK = st.tuples(st.just(""), st.just(""), st.sampled_from(["", "  ", "\t", " \t", "\f", "\x0b", "\xa0"]),
                   st.just(""))  # fmt: skip
_LINES = st.lists(
    st.tuples(_KEYS, st.sampled_from([": ", ":  ", ":", " : "]), _VALUES, st.sampled_from(["", "  ", " # c"]))
    | _BLANK,
    min_size=1,
    max_size=4,
)


@settings(max_examples=600, deadline=None)
@given(_LINES)
@example([("paths", ": ", '["x", 1e5]', "")])  # YAML 1.1 reads 1e5 as a string, JSON as a number
@example([("on", ": ", '["x"]', "")])  # and `on` as a boolean key
@example([("paths", ": ", '["x"]', ""), ("", "", "\t", "")])  # a line of a tab is an error in YAML
@example([("k" * 1100, ": ", '"x"', "")])  # past YAML's simple-key length
def test_the_json_fast_path_reads_frontmatter_as_yaml_does(lines: list[tuple[str, str, str, str]]) -> None:
    raw = "\n".join(f"{key}{colon}{value}{tail}" if key else value for key, colon, value, tail in lines)
    fast = _json_lines(raw)
    if fast is None:
        return  # left to YAML
    try:
        read = yaml.safe_load(raw)
    except yaml.YAMLError as error:
        raise AssertionError(f"the fast path read {raw!r}, which YAML refuses: {error}") from None
    assert fast == {str(k): v for k, v in (read or {}).items()}


def test_the_json_fast_path_takes_the_usual_shapes_and_leaves_the_rest() -> None:
    assert _json_lines('paths: ["src/**", "docs/*.md"]\nalwaysApply: false') == {
        "paths": ["src/**", "docs/*.md"],
        "alwaysApply": False,
    }
    assert _json_lines('applyTo: "**/*.ts"') == {"applyTo": "**/*.ts"}
    for left in ['on: ["x"]', "paths: [1]", "paths: **/*.ts", 'paths: ["a\\\\b"]', 'paths: ["a",]', "- x"]:
        assert _json_lines(left) is None, left
