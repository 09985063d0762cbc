"""Cuts static TrueType faces from a variable font (Deck Studio's export font set).

Driven by `studio fonts build` (src/export/fonts.ts), which owns the face list and hands it over as
JSON on stdin:

    {"source": "<variable .woff2 or .ttf>", "out": "<folder>",
     "faces": [{"file": "InterDisplay-Medium.ttf", "family": "Inter Display", "style": "Medium",
                "postscript": "InterDisplay-Medium", "axes": {"wght": 500, "opsz": 32}}, ...]}

and reads back one JSON line on stdout: {"fontTools": "<version>", "brotli": "module" | "node",
"faces": [{"file": ..., "bytes": ...}]}.

Each face is a full instance (every axis pinned), named for presentation software: `family` is the
typographic family (name ID 16) and `style` its subfamily (17). Regular keeps the legacy family
(name ID 1) equal to the family; any other style becomes a legacy family of its own ("Inter Medium",
style "Regular"), because PowerPoint and GDI group at most regular/bold/italic/bold italic under one
family name and a deck names a medium face by that legacy family.

The output is deterministic: head.modified is pinned to the source's head.created, nothing else
depends on the clock, and the name table is rebuilt from the face entry alone, so two builds from
the same source with the same fontTools give identical bytes.

WOFF2 input needs the `brotli` module. When the interpreter lacks it, the one call fontTools makes
(brotli.decompress) is answered by Node's zlib, run as STUDIO_NODE (set by the action).
"""
import copy
import json
import os
import subprocess
import sys
import types

NODE_BROTLI = "process.stdout.write(require('zlib').brotliDecompressSync(require('fs').readFileSync(0)))"


def brotli_via_node():
    """A stand-in `brotli` module whose decompress runs Node's zlib (fontTools only decompresses)."""
    node = os.environ.get("STUDIO_NODE") or "node"

    def decompress(data):
        done = subprocess.run([node, "-e", NODE_BROTLI], input=data, stdout=subprocess.PIPE, check=True)
        return done.stdout

    module = types.ModuleType("brotli")
    module.decompress = decompress
    return module


def install_brotli():
    if os.environ.get("STUDIO_FONTS_NODE_BROTLI") != "1":
        try:
            import brotli  # noqa: F401

            return "module"
        except ImportError:
            pass
    sys.modules["brotli"] = brotli_via_node()
    return "node"


def rename(font, face, version):
    family, style = face["family"], face["style"]
    legacy_family = family if style == "Regular" else f"{family} {style}"
    name = font["name"]
    copyright_ = name.getDebugName(0)
    licence_url = name.getDebugName(14)
    licence = name.getDebugName(13)
    if not licence and licence_url and "openfontlicense" in licence_url:
        licence = "This Font Software is licensed under the SIL Open Font License, Version 1.1."
    axes = " ".join(f"{tag}={value:g}" for tag, value in sorted(face["axes"].items()))
    records = {
        0: copyright_,
        1: legacy_family,
        2: "Regular",
        3: f"{version};{face['postscript']}",
        4: f"{family} {style}",
        5: f"Version {version}",
        6: face["postscript"],
        10: f"Static instance ({axes}) of {face['sourceName']}, cut by Deck Studio's scripts/fonts/cut.py.",
        13: licence,
        14: licence_url,
    }
    if style != "Regular":
        records[16] = family
        records[17] = style
    name.names = []
    for name_id, text in sorted(records.items()):
        if text:
            name.setName(text, name_id, 3, 1, 0x409)


def cut(source, face, version):
    from fontTools.varLib import instancer

    font = instancer.instantiateVariableFont(source, {tag: float(v) for tag, v in face["axes"].items()}, inplace=False)
    for tag in ("STAT", "fvar", "avar", "gvar", "HVAR", "MVAR", "cvar"):
        if tag in font:
            del font[tag]
    rename(font, face, version)
    os2 = font["OS/2"]
    os2.usWeightClass = int(face["axes"].get("wght", 400))
    os2.fsSelection = (os2.fsSelection & ~0b100001) | (1 << 6)  # not italic, not bold: regular of its legacy family
    font["head"].macStyle = 0
    font["head"].modified = font["head"].created
    font.recalcTimestamp = False
    font.flavor = None
    return font


def main():
    plan = json.load(sys.stdin)
    backend = install_brotli()
    import fontTools
    from fontTools.ttLib import TTFont

    source = TTFont(plan["source"])
    source.flavor = None
    if "fvar" not in source:
        raise SystemExit(f"{plan['source']} is not a variable font (no fvar table)")
    axes = {a.axisTag: (a.minValue, a.maxValue) for a in source["fvar"].axes}
    for face in plan["faces"]:
        for tag, value in face["axes"].items():
            if tag not in axes or not axes[tag][0] <= value <= axes[tag][1]:
                raise SystemExit(f"{face['file']}: axis {tag}={value} is outside the source's axes {axes}")
    version = (source["name"].getDebugName(5) or "Version 1.000").split(";")[0].replace("Version ", "").strip()
    os.makedirs(plan["out"], exist_ok=True)
    source_name = plan.get("sourceName", os.path.basename(plan["source"]))
    global JOB
    JOB = (source, version, source_name, plan["out"])
    jobs = max(1, min(int(plan.get("jobs", 1)), len(plan["faces"])))
    if jobs > 1:
        import multiprocessing

        # fork: every worker starts with the decompiled source; each face is written by one worker.
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            written = pool.map(write_face, plan["faces"], chunksize=1)
    else:
        written = [write_face(face) for face in plan["faces"]]
    print(json.dumps({"fontTools": fontTools.version, "brotli": backend, "faces": written}))


JOB = None


def write_face(face):
    source, version, source_name, out = JOB
    font = cut(source, dict(face, sourceName=source_name), version)
    path = os.path.join(out, face["file"])
    font.save(path)
    return {"file": face["file"], "bytes": os.path.getsize(path)}


if __name__ == "__main__":
    main()
