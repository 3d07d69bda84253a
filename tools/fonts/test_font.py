#!/usr/bin/env python3
"""Builds the tiny TrueType (glyf) font the renderer's tests load by name.

Three glyphs: .notdef, "A" (a square with a square hole, drawn with quadratic curves on its
outer corners) and "B" (a triangle). Its line metrics are round numbers so tests can reason
about placement. Output: tools/jengine/tests/golden/fonts/Shapes.ttf. Needs fonttools.
"""

import pathlib

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

OUT = pathlib.Path(__file__).resolve().parents[2] / "tools/jengine/tests/golden/fonts/Shapes.ttf"


def glyph(draw):
    pen = TTGlyphPen(None)
    draw(pen)
    return pen.glyph()


def notdef(pen):
    pen.moveTo((100, 0))
    pen.lineTo((100, 700))
    pen.lineTo((500, 700))
    pen.lineTo((500, 0))
    pen.closePath()


def square(pen):
    pen.moveTo((100, 100))
    pen.qCurveTo((50, 400), (100, 700))
    pen.lineTo((800, 700))
    pen.qCurveTo((850, 400), (800, 100))
    pen.closePath()
    pen.moveTo((300, 300))
    pen.lineTo((600, 300))
    pen.lineTo((600, 500))
    pen.lineTo((300, 500))
    pen.closePath()


def triangle(pen):
    pen.moveTo((100, 0))
    pen.lineTo((450, 700))
    pen.lineTo((800, 0))
    pen.closePath()


def main():
    fb = FontBuilder(1000, isTTF=True)
    order = [".notdef", "A", "B"]
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({ord("A"): "A", ord("B"): "B"})
    fb.setupGlyf({".notdef": glyph(notdef), "A": glyph(square), "B": glyph(triangle)})
    fb.setupHorizontalMetrics({name: (900, 50) for name in order})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Shapes", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, sTypoLineGap=0, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    fb.save(str(OUT))
    print(f"{OUT}: {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
