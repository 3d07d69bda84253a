#!/usr/bin/env python3
"""Builds the renderer's bundled colour emoji font: Noto Color Emoji cut down to what games draw.

Keeps single code point emoji only (no ZWJ, keycap, flag or skin-tone sequences: the renderer
draws one glyph per character and gives U+FE0F, U+FE0E and U+200D no width), from these groups
of Unicode's emoji-test.txt: Animals & Nature, Food & Drink, Travel & Places, Activities, Objects
and Symbols (less keycaps and letters in boxes), the hearts and emotion marks of Smileys & Emotion,
the single flags (🏁 🚩 🎌, no country flags), and every emoji found in the Miau packs (projects/miau/mods and packages/jengine-miau).
Faces and people are left out to keep the file small. Re-run it after a pack uses an emoji
outside this set; CI does not run it, the result is committed. Two runs give identical bytes.

Needs: fonttools (`pip install fonttools`), Debian's fonts-noto-color-emoji (the font, 2.042) and
unicode-data (emoji-test.txt), or pass them with --source and --emoji-test.
"""

import argparse
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
SOURCE = pathlib.Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
EMOJI_TEST = pathlib.Path("/usr/share/unicode/emoji/emoji-test.txt")
LICENCE = pathlib.Path("/usr/share/doc/fonts-noto-color-emoji/copyright")
OUT_DIR = ROOT / "tools" / "render" / "fonts"
OUT_FONT = OUT_DIR / "NotoColorEmoji.subset.ttf"
OUT_LICENCE = OUT_DIR / "NotoColorEmoji-OFL.txt"

# Whole groups kept, and subgroups kept out of them or added from other groups.
GROUPS = ["Animals & Nature", "Food & Drink", "Travel & Places", "Activities", "Objects", "Symbols"]
SUBGROUPS_LEFT_OUT = {"keycap", "alphanum"}
SUBGROUPS_ADDED = {"heart", "emotion", "flag"}

# Where the Miau packs keep their palettes.
PACK_GLOBS = [
    ("projects/miau/mods", ["*.json", "*.cjs", "*.lua"]),
    ("packages/jengine-miau", ["**/*.rs", "**/*.json", "**/*.cjs", "**/*.lua"]),
]

VARIATION_SELECTORS = {0xFE0E, 0xFE0F}


def common_emoji(path: pathlib.Path) -> set:
    """Single code point emoji (U+FE0F aside) of the kept groups and subgroups."""
    kept = set()
    group = subgroup = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# group:"):
            group = line.split(":", 1)[1].strip()
        elif line.startswith("# subgroup:"):
            subgroup = line.split(":", 1)[1].strip()
        elif line and not line.startswith("#"):
            points = [int(cp, 16) for cp in line.split(";")[0].split()]
            points = [cp for cp in points if cp not in VARIATION_SELECTORS]
            wanted = (group in GROUPS and subgroup not in SUBGROUPS_LEFT_OUT) or (
                subgroup in SUBGROUPS_ADDED
            )
            if wanted and len(points) == 1:
                kept.add(points[0])
    return kept


def emoji_in_packs(known: set) -> set:
    """Every character of the packs that the emoji font draws and the Japanese font does not."""
    found = set()
    for folder, globs in PACK_GLOBS:
        base = ROOT / folder
        for pattern in globs:
            for path in sorted(base.glob(pattern)):
                if "target" in path.parts or not path.is_file():
                    continue
                text = path.read_text(encoding="utf-8", errors="ignore")
                found.update(ord(ch) for ch in text if ord(ch) >= 0x2000 and ord(ch) in known)
    return found


def licence_text(copyright_line: str) -> str:
    """The OFL text from Debian's copyright file, unwrapped from its control-file layout."""
    lines = LICENCE.read_text(encoding="utf-8").splitlines()
    # The first "License: SIL-1.1" line names the files' licence; the second starts its text.
    start = lines.index("License:   SIL-1.1", lines.index("License:   SIL-1.1") + 1)
    body = []
    for line in lines[start + 1:]:
        if line and not line.startswith(" "):
            break
        body.append("" if line.strip() == "." else line[1:])
    header = [
        "Noto Color Emoji (subset bundled with the jengine renderer)",
        copyright_line,
        "",
        "The subset was made with tools/render/fonts/emoji_subset.py from Debian's fonts-noto-color-emoji",
        "package (version 2.042).",
        "",
    ]
    return "\n".join(header + body).rstrip() + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=pathlib.Path, default=SOURCE)
    parser.add_argument("--emoji-test", type=pathlib.Path, default=EMOJI_TEST)
    args = parser.parse_args()
    for path, package in [(args.source, "fonts-noto-color-emoji"), (args.emoji_test, "unicode-data")]:
        if not path.exists():
            print(f"{path} not found: apt-get install {package}, or pass its path", file=sys.stderr)
            return 1

    from fontTools.ttLib import TTFont

    source = TTFont(str(args.source))
    known = set(source.getBestCmap())
    copyright_line = source["name"].getDebugName(0) or "Copyright Google Inc."
    common = common_emoji(args.emoji_test) & known
    packs = emoji_in_packs(known)
    codepoints = common | packs
    missing_from_packs = packs - common

    OUT_DIR.mkdir(parents=True, exist_ok=True)
    unicodes_file = OUT_DIR / ".emoji-unicodes.txt"
    unicodes_file.write_text(",".join(f"U+{cp:04X}" for cp in sorted(codepoints)))
    try:
        subprocess.run(
            [
                "pyftsubset",
                str(args.source),
                f"--unicodes-file={unicodes_file}",
                f"--output-file={OUT_FONT}",
                # Sequences are not drawn, so no substitutions are kept.
                "--layout-features=",
                "--drop-tables+=GSUB,vhea,vmtx",
                "--notdef-outline",
                "--name-IDs=*",
                "--name-languages=*",
            ],
            check=True,
        )
    finally:
        unicodes_file.unlink(missing_ok=True)
    if LICENCE.exists():
        OUT_LICENCE.write_text(licence_text(copyright_line), encoding="utf-8")
    size = OUT_FONT.stat().st_size
    print(
        f"{OUT_FONT.relative_to(ROOT)}: {size} bytes, {len(codepoints)} emoji "
        f"({len(packs)} used by the packs, {len(missing_from_packs)} of them outside the common set)"
    )
    if size >= 3 * 1024 * 1024:
        print("the subset is over 3 MB", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
