#!/usr/bin/env python3
"""Builds the renderer's bundled Japanese font: M PLUS 1 Regular cut down to what the games draw.

Keeps Latin, kana, Japanese punctuation and symbols, JIS X 0208 level-1 kanji (the common kanji
that cover nearly all of the joyo list, for UI text), and every kanji found in the games' words,
scripts, scenes and data. Re-run it after adding text that uses a rarer kanji; CI does not run it,
the result is committed.

Needs: fonttools (`pip install fonttools`) and Debian's fonts-mplus package
(`apt-get install fonts-mplus`), or pass the source font with --source.
"""

import argparse
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
SOURCE = pathlib.Path("/usr/share/fonts/opentype/mplus/Mplus1-Regular.otf")
LICENCE = pathlib.Path("/usr/share/doc/fonts-mplus/copyright")
OUT_DIR = ROOT / "tools" / "render" / "fonts"
OUT_FONT = OUT_DIR / "Mplus1-Regular.subset.otf"

# Whole blocks kept regardless of use (pyftsubset skips code points the font lacks).
RANGES = [
    (0x0020, 0x007E),  # Basic Latin
    (0x00A0, 0x017F),  # Latin-1 Supplement, Latin Extended-A
    (0x2000, 0x206F),  # General Punctuation
    (0x2100, 0x215F),  # Letterlike symbols, number forms
    (0x2190, 0x21FF),  # Arrows
    (0x2460, 0x24FF),  # Enclosed alphanumerics
    (0x2500, 0x257F),  # Box drawing
    (0x25A0, 0x26FF),  # Geometric shapes, misc symbols
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0xFF00, 0xFFEF),  # Halfwidth and fullwidth forms
]

# Where the games keep text.
TEXT_GLOBS = [
    ("packages", ["**/*.tsv", "**/*.rs", "**/*.json", "**/*.lua"]),
    ("projects", ["**/*.lua", "**/*.scene", "**/*.json", "**/*.jengine"]),
]


def is_kanji(ch: str) -> bool:
    cp = ord(ch)
    return 0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0xF900 <= cp <= 0xFAFF


def level_one_kanji() -> set:
    """JIS X 0208 level 1: rows 16-47, EUC-JP lead bytes 0xB0-0xCF."""
    found = set()
    for lead in range(0xB0, 0xD0):
        for trail in range(0xA1, 0xFF):
            try:
                ch = bytes([lead, trail]).decode("euc_jp")
            except UnicodeDecodeError:
                continue
            if is_kanji(ch):
                found.add(ch)
    return found


def kanji_in_games() -> set:
    found = set()
    for folder, globs in TEXT_GLOBS:
        base = ROOT / folder
        for pattern in globs:
            for path in sorted(base.glob(pattern)):
                if "target" in path.parts or not path.is_file():
                    continue
                text = path.read_text(encoding="utf-8", errors="ignore")
                found.update(ch for ch in text if is_kanji(ch))
    return found


def licence_text() -> str:
    """The OFL text from Debian's copyright file, unwrapped from its control-file layout."""
    lines = LICENCE.read_text(encoding="utf-8").splitlines()
    start = lines.index("License: OFL-1.1", lines.index("License: OFL-1.1") + 1)
    body = []
    for line in lines[start + 1:]:
        if line and not line.startswith(" "):
            break
        body.append("" if line.strip() == "." else line[1:])
    header = [
        "M PLUS 1 (subset bundled with the jengine renderer)",
        "Copyright 2021 The M+ FONTS Project Authors (https://github.com/coz-m/MPLUS_FONTS)",
        "",
        "This Font Software is licensed under the SIL Open Font License, Version 1.1.",
        "The subset was made with tools/render/fonts/subset.py from Debian's fonts-mplus package.",
        "",
        "SIL OPEN FONT LICENSE Version 1.1",
        "",
    ]
    return "\n".join(header + body).rstrip() + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=pathlib.Path, default=SOURCE)
    args = parser.parse_args()
    if not args.source.exists():
        print(f"{args.source} not found: apt-get install fonts-mplus, or pass --source", file=sys.stderr)
        return 1

    games = kanji_in_games()
    common = level_one_kanji()
    codepoints = {cp for lo, hi in RANGES for cp in range(lo, hi + 1)}
    codepoints |= {ord(ch) for ch in games | common}
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    unicodes_file = OUT_DIR / ".unicodes.txt"
    unicodes_file.write_text(",".join(f"U+{cp:04X}" for cp in sorted(codepoints)))
    try:
        subprocess.run(
            [
                "pyftsubset",
                str(args.source),
                f"--unicodes-file={unicodes_file}",
                f"--output-file={OUT_FONT}",
                "--layout-features=*",
                "--notdef-outline",
                "--name-IDs=*",
                "--name-languages=*",
                "--no-hinting",
                "--desubroutinize",
            ],
            check=True,
        )
    finally:
        unicodes_file.unlink(missing_ok=True)
    if LICENCE.exists():
        (OUT_DIR / "OFL.txt").write_text(licence_text(), encoding="utf-8")
    size = OUT_FONT.stat().st_size
    print(f"{OUT_FONT.relative_to(ROOT)}: {size} bytes, {len(games)} kanji from the games, "
          f"{len(common)} level-1 kanji, {len(games - common)} of the games' outside level 1")
    if size >= 4 * 1024 * 1024:
        print("the subset is over 4 MB", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
