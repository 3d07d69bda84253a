#!/usr/bin/env python3
"""Builds the tiny TrueType (glyf) fonts the renderer's tests load by name.

Shapes.ttf has three glyphs: .notdef, "A" (a square with a square hole, drawn with quadratic
curves on its outer corners) and "B" (a triangle). Layers.ttf draws in colour (COLR and CPAL):
"A" is a red square under a smaller blue one (COLR version 0 layers), "B" a square filled with
a linear gradient from red on the left to blue on the right (a version 1 paint). Their line
metrics are round numbers so tests can reason about placement. Output:
tools/render/fonts/test/. Needs fonttools.
"""

import pathlib

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

FONTS = pathlib.Path(__file__).resolve().parents[3] / "tools/render/fonts/test"
OUT = FONTS / "Shapes.ttf"
OUT_LAYERS = FONTS / "Layers.ttf"


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


def box(left, bottom, right, top):
    def draw(pen):
        pen.moveTo((left, bottom))
        pen.lineTo((left, top))
        pen.lineTo((right, top))
        pen.lineTo((right, bottom))
        pen.closePath()

    return draw


def layers():
    fb = FontBuilder(1000, isTTF=True)
    order = [".notdef", "A", "B", "big", "small"]
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({ord("A"): "A", ord("B"): "B"})
    fb.setupGlyf(
        {
            ".notdef": glyph(notdef),
            "A": glyph(box(100, 0, 800, 700)),
            "B": glyph(box(100, 0, 800, 700)),
            "big": glyph(box(100, 0, 800, 700)),
            "small": glyph(box(300, 200, 600, 500)),
        }
    )
    fb.setupHorizontalMetrics({name: (900, 100) for name in order})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Layers", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, sTypoLineGap=0, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    fb.setupCPAL([[(1.0, 0.0, 0.0, 1.0), (0.0, 0.0, 1.0, 1.0)]])
    gradient = {
        "Format": 10,  # PaintGlyph
        "Glyph": "big",
        "Paint": {
            "Format": 4,  # PaintLinearGradient
            "ColorLine": {
                "Extend": "pad",
                "ColorStop": [
                    {"StopOffset": 0.0, "PaletteIndex": 0, "Alpha": 1.0},
                    {"StopOffset": 1.0, "PaletteIndex": 1, "Alpha": 1.0},
                ],
            },
            "x0": 100,
            "y0": 0,
            "x1": 800,
            "y1": 0,
            "x2": 100,
            "y2": 700,
        },
    }
    fb.setupCOLR({"A": [("big", 0), ("small", 1)], "B": gradient})
    fb.save(str(OUT_LAYERS))
    print(f"{OUT_LAYERS}: {OUT_LAYERS.stat().st_size} bytes")


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
    layers()


if __name__ == "__main__":
    main()
