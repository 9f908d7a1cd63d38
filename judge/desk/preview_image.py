"""A ruling's link-preview picture (1200×630 PNG, what a chat shows large under a shared link): the
question, the verdict with its deciding reason and rules, and the board, drawn with Pillow.

    png = preview_png(Preview.of(ruling_view))     # bytes; the web layer keeps it by the ruling's id

Chats accept PNG/JPEG/WebP (never SVG) at 1.91:1 for a large card, so the board is drawn here from the
same geometry as the SVG board (`BoardPainter.slot_xy`), not converted from it. Text is the ruling's own
words (the answer's text, verdict first, contract §7), cut at a word to the lines it has room for.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from judge.desk.board_svg import BOX_H, BOX_W, PLAYERS, abbreviate, card_name

WIDTH, HEIGHT = 1200, 630
MARGIN = 44
TEXT_W = 620                          # the left column: question, verdict, reason
BOARD_X, BOARD_W, BOARD_H = TEXT_W + 2 * MARGIN, WIDTH - TEXT_W - 3 * MARGIN, HEIGHT - 2 * MARGIN
INK, MUTED, PAPER, LINE = (28, 28, 32), (92, 92, 104), (250, 248, 242), (196, 192, 180)
VERDICT_COLOURS = {"yes": (30, 118, 58), "no": (176, 38, 30)}
OTHER_VERDICT = (43, 76, 126)
SLOT_FILL = {"empty": (238, 235, 226), "card": (255, 255, 255), "captured": (220, 214, 200)}
TOUCHED = (214, 140, 20)
FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans where the system has it (it has every character a card name may use), else the font
    Pillow itself ships."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in FONT_DIRS:
        if (folder / name).is_file():
            return ImageFont.truetype(str(folder / name), size)
    return ImageFont.load_default(size)


@dataclass(frozen=True)
class Preview:
    """What the picture shows: the question, the verdict (`yes`/`no`/a value) and its words, the rules,
    and the board (a §2 state with the slots the deciding step touched)."""

    question: str
    verdict: str
    head: str
    reason: str
    rules: tuple[str, ...] = ()
    state: Mapping[str, Any] = field(default_factory=dict)
    touched: frozenset[str] = frozenset()

    @classmethod
    def of(cls, view: Mapping[str, Any], touched: Iterable[str] = ()) -> Preview:
        """From a ruling page's context (judge.desk.pages.ruling_context): its first answer, or the
        problems that stopped it."""
        ruling = view.get("ruling") or {}
        answers = [a for a in ruling.get("answers") or [] if isinstance(a, Mapping)]
        if not answers:
            problems = "; ".join(str(p.get("message", "")) for p in view.get("problems") or [])
            return cls(str(view.get("question") or view.get("title") or ""), "", "Not resolved",
                       problems or "This scenario can't be resolved today.")
        answer = answers[0]
        head, sep, rest = str(answer.get("text") or "").partition(": ")
        if not sep:
            head, rest = str(answer.get("verdict")), head
        return cls(str(view.get("question") or answer.get("question") or view.get("title") or ""),
                   str(answer.get("verdict")), head, rest, tuple(str(r) for r in answer.get("rules") or []),
                   ruling.get("final") or {}, frozenset(touched))


def wrap(text: str, face: Any, width: int, max_lines: int) -> list[str]:
    """`text` in lines no wider than `width`, at most `max_lines`, the last cut at a word with "…"."""
    lines: list[str] = []
    current = ""
    words = text.split()
    for i, word in enumerate(words):
        trial = f"{current} {word}".strip()
        if face.getlength(trial) <= width or not current:
            current = trial
            continue
        lines.append(current)
        current = word
        if len(lines) == max_lines:
            rest = " ".join(words[i:])
            return _ellipsis(lines, face, width) if rest else lines
    if current:
        lines.append(current)
    return lines[:max_lines] if len(lines) <= max_lines else _ellipsis(lines[:max_lines], face, width)


def _ellipsis(lines: list[str], face: Any, width: int) -> list[str]:
    last = lines[-1]
    while last and face.getlength(last + " …") > width:
        last = last.rsplit(" ", 1)[0] if " " in last else last[:-1]
    return [*lines[:-1], last.rstrip(" ,;:.") + " …"]


def preview_png(preview: Preview, painter: Any) -> bytes:
    """The picture as PNG bytes; `painter` is the desk's BoardPainter (the board's geometry)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    _text_column(draw, preview)
    _board(draw, preview, painter)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _text_column(draw: ImageDraw.ImageDraw, p: Preview) -> None:
    y = MARGIN
    draw.text((MARGIN, y), "CODEX JUDGE · A RULING", font=font(20, True), fill=MUTED)
    y += 40
    for line in wrap(p.question, font(32, True), TEXT_W, 3):
        draw.text((MARGIN, y), line, font=font(32, True), fill=INK)
        y += 42
    y += 14
    colour = VERDICT_COLOURS.get(p.verdict, OTHER_VERDICT)
    head = wrap(p.head, font(44, True), TEXT_W - 40, 1)[0] if p.head else "—"
    box_w = int(font(44, True).getlength(head)) + 40
    draw.rounded_rectangle((MARGIN, y, MARGIN + box_w, y + 66), radius=10, fill=colour)
    draw.text((MARGIN + 20, y + 9), head, font=font(44, True), fill=(255, 255, 255))
    y += 84
    room = max(1, (HEIGHT - MARGIN - 40 - y) // 34)
    for line in wrap(p.reason, font(26), TEXT_W, room):
        draw.text((MARGIN, y), line, font=font(26), fill=INK)
        y += 34
    if p.rules:
        rules = wrap("Rules " + " · ".join(p.rules), font(22), TEXT_W, 1)[0]
        draw.text((MARGIN, HEIGHT - MARGIN - 26), rules, font=font(22), fill=MUTED)


def _board(draw: ImageDraw.ImageDraw, p: Preview, painter: Any) -> None:
    """Both fields, slot by slot where the SVG board puts them, scaled into the right-hand column."""
    scale = min(BOARD_W / painter.width, BOARD_H / painter.height)
    left = BOARD_X + (BOARD_W - painter.width * scale) / 2
    top = MARGIN + (BOARD_H - painter.height * scale) / 2
    draw.rounded_rectangle((BOARD_X - 12, MARGIN - 12, WIDTH - MARGIN + 12, HEIGHT - MARGIN + 12),
                           radius=14, outline=LINE, width=2, fill=(244, 241, 232))
    players = _mapping(p.state.get("players"))
    face = font(max(12, int(15 * scale / 0.45)))
    small = font(max(12, int(13 * scale / 0.45)))
    for player in PLAYERS:
        pstate = _mapping(players.get(player))
        souls, realms = _mapping(pstate.get("field")), _mapping(pstate.get("realms"))
        spots = [(painter.slot_xy(player, s.name), s.name, souls.get(s.name))
                 for s in painter.field.soul_defs]
        spots += [(painter.realm_xy(player, i), s.name, realms.get(s.name))
                  for i, s in enumerate(painter.field.realm_defs)]
        for (x, y), slot, entry in spots:
            box = (left + x * scale, top + y * scale, left + (x + BOX_W) * scale, top + (y + BOX_H) * scale)
            _slot(draw, box, entry, f"{player}:{slot}" in p.touched, face, small)
    mid = top + (painter.height / 2) * scale
    turn = f"Turn {p.state.get('turn', '?')} · {p.state.get('turn_player', 'A')}'s turn"
    centre = (BOARD_X + WIDTH - MARGIN) / 2
    half = font(18, True).getlength(turn) / 2 + 10
    draw.rounded_rectangle((centre - half, mid - 14, centre + half, mid + 14), radius=8, fill=PAPER,
                           outline=LINE)
    draw.text((centre, mid), turn, font=font(18, True), fill=MUTED, anchor="mm")
    draw.text((BOARD_X, MARGIN - 6), "B", font=font(20, True), fill=MUTED)
    draw.text((BOARD_X, HEIGHT - MARGIN - 18), "A", font=font(20, True), fill=MUTED)


def fitted(text: str, face: Any, width: float) -> str:
    """`text` shortened as the board shortens card names, until it fits `width` pixels."""
    for chars in range(len(text), 2, -1):
        short = abbreviate(text, chars)
        if face.getlength(short) <= width:
            return short
    return text[:2]


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _slot(draw: ImageDraw.ImageDraw, box: tuple[float, ...], entry: Any, touched: bool,
          face: Any, small: Any) -> None:
    name = card_name(entry)
    captured = isinstance(entry, Mapping) and bool(entry.get("captured"))
    fill = SLOT_FILL["captured" if captured else "card" if name else "empty"]
    draw.rounded_rectangle(box, radius=5, fill=fill, outline=TOUCHED if touched else LINE,
                           width=4 if touched else 1)
    if not name:
        return
    x0, y0, x1, _ = box
    draw.text((x0 + 4, y0 + 4), fitted(name, face, x1 - x0 - 8), font=face, fill=INK)
    damage = entry.get("damage") if isinstance(entry, Mapping) else None
    note = "captured" if captured else f"damage {damage}" if damage else ""
    if note and x1 - x0 > 40:
        draw.text((x0 + 4, y0 + 8 + face.size), fitted(note, small, x1 - x0 - 8), font=small, fill=MUTED)
