"""Draw a KG's schema as a diagram for the "Bring your own KG" tab: classes and relations, with counts.

Drawn in-process as an SVG, the way ui/picture.py draws an answer's path (no library, no script, offline).
Three columns: the classes relations start from, one pill per relation with its triple count, the classes
they reach. Each relation has a row of its own, so no two labels overlap however the classes connect, and
the class order follows the relations' (each class sits at the mean row of its relations) to keep lines
short. A schema of 400 relations stays readable by drawing only the `top` relations by count; the others
are reached through a filter on names, labels and classes. Every label is escaped: KG labels are data.
"""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass

from ui.picture import CHAR_W, LINE_H, PAD, _cut

ROW_H, GAP_X, CLASS_GAP = 26, 70, 8
CLASS_FILL, CLASS_STROKE = "#dbeafe", "#2563eb"
VALUE_FILL, VALUE_STROKE = "#ede9fe", "#7c3aed"
REL_FILL, REL_STROKE = "#f3f4f6", "#9ca3af"
UNKNOWN = "?"


@dataclass(frozen=True)
class SchemaView:
    """What the diagram shows: the relations drawn, how many matched the filter, how many the schema has."""

    relations: tuple  # RelationInfo, most triples first
    matched: int
    total: int
    filter: str


def pick_relations(schema, text: str = "", top: int = 30) -> SchemaView:
    """The `top` relations by count among those whose name, label or classes hold `text` (all when empty)."""
    relations = tuple(getattr(schema, "relations", ()) or ())
    needle = " ".join((text or "").lower().split())
    matching = [r for r in relations if not needle or needle in _haystack(r)]
    matching.sort(key=lambda r: (-int(getattr(r, "count", 0) or 0), r.name))
    return SchemaView(tuple(matching[:max(top, 0)]), len(matching), len(relations), needle)


def caption(view: SchemaView) -> str:
    """One line saying what is drawn and how to see the rest."""
    if not view.total:
        return "The schema has no relations to draw."
    if view.filter and not view.matched:
        return f"No relation's name, label or classes hold “{view.filter}”."
    shown, scope = len(view.relations), (f"matching “{view.filter}”" if view.filter else "")
    if shown == view.matched:
        return f"All {shown} relations {scope}".rstrip() + ", with their triple counts."
    return (f"The {shown} relations with the most triples of the {view.matched} {scope}".rstrip()
            + "; type in the filter to draw others.")


def schema_svg(schema, view: SchemaView) -> str:
    """The view's relations as one <svg> element; empty when there is nothing to draw."""
    if not view.relations:
        return ""
    kinds = {c.name: getattr(c, "kind", "entity") for c in getattr(schema, "classes", ()) or ()}
    labels = {c.name: getattr(c, "label", c.name) or c.name for c in getattr(schema, "classes", ()) or ()}
    rows = {r.name: i for i, r in enumerate(view.relations)}
    left = _column([(d, r.name) for r in view.relations for d in (r.domain or (UNKNOWN,))], rows)
    right = _column([(g, r.name) for r in view.relations for g in (r.range or (UNKNOWN,))], rows)
    rel_text = {r.name: f"{_cut(r.label or r.name)} · {int(getattr(r, 'count', 0) or 0):,}" for r in view.relations}
    lw = _width([_cut(labels.get(c, c)) for c in left])
    rw = _width([_cut(labels.get(c, c)) for c in right])
    mw = _width(list(rel_text.values()))
    lpos, rpos = _stack(left), _stack(right)
    height = max([len(view.relations) * ROW_H, *lpos.values(), *rpos.values()]) + ROW_H + 2 * PAD
    mx, rx = PAD + lw + GAP_X, PAD + lw + GAP_X + mw + GAP_X
    parts = [
        f'<svg class="kgs-schema" xmlns="http://www.w3.org/2000/svg" width="{rx + rw + PAD:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {rx + rw + PAD:.0f} {height:.0f}" role="img" '
        f'aria-label="{html.escape(_summary(view))}" font-family="ui-sans-serif, system-ui, sans-serif" '
        'font-size="12"><defs><marker id="kgs-s-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#6b7280"/></marker></defs>',
    ]
    for r in view.relations:
        ry = PAD + rows[r.name] * ROW_H + ROW_H / 2
        for d in r.domain or (UNKNOWN,):
            parts.append(_line(PAD + lw, lpos[d] + ROW_H / 2 - 3, mx, ry, arrow=False))
        for g in r.range or (UNKNOWN,):
            parts.append(_line(mx + mw, ry, rx, rpos[g] + ROW_H / 2 - 3, arrow=True))
    for names, pos, x, w in ((left, lpos, PAD, lw), (right, rpos, rx, rw)):
        for c in names:
            literal = kinds.get(c, "entity") != "entity"
            parts.append(_box(x, pos[c], w, _cut(labels.get(c, c)), VALUE_FILL if literal else CLASS_FILL,
                              VALUE_STROKE if literal else CLASS_STROKE, "kgs-schema-class", bold=True))
    for r in view.relations:
        parts.append(_box(mx, PAD + rows[r.name] * ROW_H + 2, mw, rel_text[r.name], REL_FILL, REL_STROKE,
                          "kgs-schema-relation", bold=False))
    parts.append("</svg>")
    return "".join(parts)


def schema_image(schema, view: SchemaView) -> str:
    """The diagram as an <img> with the SVG as a data: URI (as ui.picture.walk_image, for the same reason)."""
    svg = schema_svg(schema, view)
    if not svg:
        return ""
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return (f'<img class="kgs-schema" alt="{html.escape(_summary(view))}" style="max-width:100%" '
            f'src="data:image/svg+xml;base64,{data}">')


def _haystack(relation) -> str:
    return " ".join([relation.name, relation.label or "", *relation.domain, *relation.range]).lower().replace("_", " ")


def _column(pairs: list[tuple[str, str]], rows: dict[str, int]) -> dict[str, float]:
    """Each class's mean row among the relations it touches, in that order, so its lines run short."""
    seen: dict[str, list[int]] = {}
    for cls, rel in pairs:
        seen.setdefault(cls, []).append(rows[rel])
    means = {c: sum(r) / len(r) for c, r in seen.items()}
    return dict(sorted(means.items(), key=lambda item: (item[1], item[0])))


def _stack(means: dict[str, float]) -> dict[str, float]:
    """Top y of each class box: level with its relations' mean row, pushed down where it would overlap."""
    out, below = {}, PAD
    for c, mean in means.items():
        out[c] = max(PAD + mean * ROW_H, below)
        below = out[c] + ROW_H + CLASS_GAP
    return out


def _width(texts: list[str]) -> float:
    return max((len(t) for t in texts), default=1) * CHAR_W + 2 * PAD


def _line(x1: float, y1: float, x2: float, y2: float, arrow: bool) -> str:
    marker = ' marker-end="url(#kgs-s-arrow)"' if arrow else ""
    return (f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#9ca3af" '
            f'stroke-width="1"{marker}/>')


def _box(x: float, y: float, w: float, text: str, fill: str, stroke: str, cls: str, bold: bool) -> str:
    weight = ' font-weight="600"' if bold else ""
    return (f'<g class="{cls}"><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{ROW_H - 6}" rx="6" '
            f'fill="{fill}" stroke="{stroke}"/><text x="{x + PAD:.1f}" y="{y + LINE_H - 1:.1f}"{weight} '
            f'fill="#111827">{html.escape(text)}</text></g>')


def _summary(view: SchemaView) -> str:
    """A text alternative: the relations drawn, as domain -> relation -> range."""
    said = [f"{'|'.join(r.domain) or UNKNOWN} {r.name} {'|'.join(r.range) or UNKNOWN}" for r in view.relations[:20]]
    more = len(view.relations) - len(said)
    return "Schema: " + "; ".join(said) + (f"; and {more} more" if more > 0 else "")
