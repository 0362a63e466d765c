"""Budgets count the rendered payload; over budget, the broadest files go first and the cut is visible."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jitctx.assemble import NOTICE, RenderItem, fit_budget, fit_profile, render_overhead, rendered_size
from jitctx.errors import UsageError
from jitctx.model import InstructionFile, Tier
from jitctx.profiles import KIB, get_profile

LIMIT = 64 * KIB  # 65,536 B, the dsh host's maxBytes in the governance seed


def test_dsh_overhead_for_agents_md_is_the_measured_304_bytes() -> None:
    # 65,396 B rendered - 65,092 B body; 65,536 - 304 = 65,232 B of room for the body.
    assert render_overhead("AGENTS.md", "dsh") == 304
    assert rendered_size([("AGENTS.md", "x" * 65_092)], "dsh") == 65_396


@pytest.mark.parametrize(
    ("body", "payload", "status", "kept", "lost"),
    [
        (65_092, 65_396, "kept", 65_092, 0),  # the seed's file: under the limit once rendered, no truncation
        (65_232, 65_536, "kept", 65_232, 0),  # exactly at the limit
        (65_233, 65_536, "truncated", 65_139, 94),  # one byte over once rendered
        (65_300, 65_536, "truncated", 65_137, 163),  # under 64 KiB by its own size, over once rendered
        (200_000, 65_536, "truncated", 65_131, 134_869),
    ],
)
def test_seed_arithmetic_for_a_64_kib_budget(
    body: int, payload: int, status: str, kept: int, lost: int
) -> None:
    result = fit_budget([("AGENTS.md", "x" * body)], LIMIT, style="dsh")
    (only,) = result.files
    assert (result.payload_bytes, only.status, only.bytes_kept, only.bytes_lost) == (
        payload,
        status,
        kept,
        lost,
    )
    assert only.chars_lost == lost  # ASCII: one byte per character
    assert result.payload_bytes <= LIMIT
    assert result.complete is (status == "kept")


def test_the_notice_names_the_file_and_the_bytes_lost_and_counts_against_the_budget() -> None:
    result = fit_budget([("AGENTS.md", "x" * 65_233)], LIMIT, style="dsh")
    cut = result.truncated
    assert cut is not None
    notice = NOTICE.format(path="AGENTS.md", lost=94, chars=94, limit=LIMIT)
    assert cut.text == "x" * 65_139 + notice
    assert result.payload.endswith(notice + "\n</system-reminder>")
    assert result.payload_bytes == 304 + 65_139 + len(notice) == LIMIT


@pytest.mark.parametrize(
    ("chars", "kept", "lost", "chars_lost", "payload"),
    [
        (21_744, 65_232, 0, 0, 65_536),  # 3-byte characters filling the room exactly
        (21_745, 65_139, 96, 32, 65_536),
        (30_000, 65_133, 24_867, 8_289, 65_535),  # room 65,134 is inside a character: cut one byte earlier
    ],
)
def test_cjk_text_is_cut_on_a_character_boundary(
    chars: int, kept: int, lost: int, chars_lost: int, payload: int
) -> None:
    text = "汉" * chars
    result = fit_budget([("AGENTS.md", text)], LIMIT, style="dsh")
    (only,) = result.files
    assert (only.bytes_kept, only.bytes_lost, only.chars_lost, result.payload_bytes) == (
        kept,
        lost,
        chars_lost,
        payload,
    )
    assert only.text.startswith("汉" * (kept // 3))
    assert "\ufffd" not in result.payload
    result.payload.encode("utf-8").decode("utf-8")  # well-formed


def test_mixed_width_text_never_splits_a_character() -> None:
    text = "a汉😀" * 1000  # 1 + 3 + 4 bytes
    for limit in range(400, 460):
        result = fit_budget([("docs/规则.md", text)], limit, style="plain")
        cut = result.truncated
        assert cut is not None
        head = cut.text.split("\n\n[jitctx:")[0]
        assert text.startswith(head)
        assert len(head.encode()) == cut.bytes_kept
        assert cut.chars_lost == len(text) - len(head)
        assert result.payload_bytes <= limit


def test_an_empty_budget_delivers_nothing_and_reports_every_file() -> None:
    result = fit_budget([("AGENTS.md", "root"), ("src/AGENTS.md", "src")], 0, style="dsh")
    assert result.payload == ""
    assert result.payload_bytes == 0
    assert [f.status for f in result.files] == ["dropped", "dropped"]
    assert [f.bytes_lost for f in result.files] == [4, 3]
    assert result.kept == ()


def test_no_files_is_an_empty_payload() -> None:
    result = fit_budget([], LIMIT, style="claude")
    assert (result.payload, result.payload_bytes, result.files, result.headroom) == ("", 0, (), LIMIT)


def test_broadest_files_are_dropped_first_and_the_most_specific_kept() -> None:
    files = [("AGENTS.md", "r" * 100), ("src/AGENTS.md", "s" * 100), ("src/ui/AGENTS.md", "u" * 100)]
    all_three = rendered_size(files, "plain")
    last_two = rendered_size(files[1:], "plain")
    result = fit_budget(files, all_three - 1, style="plain")
    assert [f.status for f in result.files] == ["dropped", "kept", "kept"]
    assert result.payload_bytes == last_two
    assert result.dropped[0].display == "AGENTS.md"
    assert result.dropped[0].bytes_lost == 100
    assert fit_budget(files, all_three, style="plain").complete


def test_a_small_broad_file_is_not_kept_after_a_larger_one_was_dropped() -> None:
    # What stays is always the most specific tail of the load order: predictable, as the dsh host does.
    files = [("AGENTS.md", "r"), ("src/AGENTS.md", "s" * 500), ("src/ui/AGENTS.md", "u" * 10)]
    result = fit_budget(files, rendered_size(files[2:], "plain") + 40, style="plain")
    assert [f.status for f in result.files] == ["dropped", "dropped", "kept"]


def test_when_not_even_the_header_and_notice_fit_the_file_is_dropped() -> None:
    result = fit_budget([("AGENTS.md", "x" * 1000)], 100, style="dsh")
    assert result.files[0].status == "dropped"
    assert result.payload_bytes == 0


def test_the_render_overhead_alone_can_push_a_file_over() -> None:
    text = "x" * 1000
    limit = 1000 + render_overhead("a/very/long/path/to/AGENTS.md", "claude") - 1
    result = fit_budget([("a/very/long/path/to/AGENTS.md", text)], limit, style="claude")
    assert result.truncated is not None
    assert fit_budget([("AGENTS.md", text)], limit, style="claude").complete  # shorter header fits


def test_instruction_files_are_accepted_directly() -> None:
    f = InstructionFile(
        path="/p/CLAUDE.local.md", display="CLAUDE.local.md", tier=Tier.LOCAL, text="t", size=1, mtime_ns=0
    )
    result = fit_budget([f], LIMIT, style="claude")
    assert "(user's private project instructions, not checked in)" in result.payload
    assert result.delivered() == (RenderItem("CLAUDE.local.md", "t", Tier.LOCAL),)


def test_fit_profile_takes_limit_mode_and_style_from_the_profile() -> None:
    result = fit_profile([("AGENTS.md", "x" * 40_000)], get_profile("codex"))
    assert (result.limit, result.mode, result.style) == (32 * KIB, "root-first", "agents-md")
    assert result.files[0].bytes_kept == 32 * KIB
    assert fit_profile([("AGENTS.md", "x")], get_profile("jitctx"), limit=5).limit == 5


@pytest.mark.parametrize(("kwargs", "message"), [({"limit": -1}, "negative"), ({"mode": "x"}, "truncation")])
def test_bad_arguments_are_usage_errors(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"limit": 10, "mode": "jitctx", **kwargs}
    with pytest.raises(UsageError, match=message):
        fit_budget([("a", "b")], args["limit"], mode=args["mode"])  # type: ignore[arg-type]


def test_to_dict_reports_every_file() -> None:
    result = fit_budget([("AGENTS.md", "r" * 10), ("src/AGENTS.md", "汉" * 100)], 200, style="plain")
    data = result.to_dict()
    assert data["limit"] == 200  # 376 B rendered: the root goes, the rest is cut
    assert [f["status"] for f in data["files"]] == ["dropped", "truncated"]
    assert data["files"][1]["bytes_kept"] + data["files"][1]["bytes_lost"] == 300


text_strategy = st.text(
    alphabet=st.sampled_from(["a", "b", " ", "\n", "汉", "字", "😀", "é", "ｱ"]), min_size=0, max_size=300
)
files_strategy = st.lists(
    st.tuples(
        st.sampled_from(["AGENTS.md", "src/AGENTS.md", "src/ui/CLAUDE.md", "文档/规则.md"]), text_strategy
    ),
    max_size=5,
)


@settings(max_examples=300, deadline=None)
@given(
    files=files_strategy,
    limit=st.integers(min_value=0, max_value=1500),
    style=st.sampled_from(["plain", "dsh", "claude", "agents-md"]),
)
def test_the_rendered_payload_never_exceeds_the_budget(
    files: list[tuple[str, str]], limit: int, style: str
) -> None:
    result = fit_budget(files, limit, style=style)
    assert result.payload_bytes <= limit
    assert result.payload_bytes == len(result.payload.encode("utf-8"))
    for outcome, (_, text) in zip(result.files, files, strict=True):
        assert outcome.bytes_kept + outcome.bytes_lost == len(text.encode("utf-8"))
        if outcome.status == "kept":
            assert outcome.text == text
        elif outcome.status == "truncated":
            assert text.encode("utf-8").startswith(outcome.text.split("\n\n[jitctx: ")[0].encode("utf-8"))
    kept = [f.status != "dropped" for f in result.files]
    assert kept == sorted(kept)  # dropped files are always a prefix: the broadest go first
    if rendered_size(files, style) <= limit:
        assert result.complete
