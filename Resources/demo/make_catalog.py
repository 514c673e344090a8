#!/usr/bin/env python3
"""Writes catalog.json, the bundled demo catalog, from ../shared/data (run from the repository root or anywhere).

Titles come from jsonplaceholder's photo records (MIT, typicode); pictures are the scikit-image sample photos
copied into photos/ (credits in CREDITS.md). A few rows exercise the hard cases on purpose: a long title that wraps,
wide characters, a title full of terminal control sequences, an item with no image, a truncated JPEG and a file
that is not an image at all.
"""
import json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
shared = os.path.join(here, "..", "..", "..", "shared", "data")

PHOTOS = [
    ("chelsea.png", "Chelsea the cat", "PNG 451x300", "CC0, photographer Stefan van der Walt"),
    ("coffee.png", "A cup of coffee", "PNG 600x400", "CC0, photographer Rachel Michetti"),
    ("astronaut.png", "Eileen Collins, astronaut", "PNG 512x512", "Public domain, NASA Great Images database"),
    ("rocket.jpg", "Falcon 9 launching DSCOVR", "JPEG 640x427", "Public domain, SpaceX"),
    ("hubble_deep_field.jpg", "Hubble Deep Field", "JPEG 1000x872", "Public domain, NASA"),
    ("camera.png", "The cameraman", "PNG 512x512 grey", "CC0, photographer Lav Varshney"),
    ("coins.png", "Greek coins from Pompeii", "PNG 384x303 grey", "No known copyright restrictions, Brooklyn Museum"),
    ("horse.png", "Horse silhouette", "PNG 400x328 with transparency", "CC0, Andreas Preuss (openclipart)"),
    ("palette_color.png", "Palette test card", "PNG 10x10 indexed", "BSD-3-Clause, scikit-image"),
]

SPECIAL = {
    3: dict(title="A deliberately long title that goes on and on so that it has to wrap over several lines of the "
                  "row, which makes this row taller than its neighbours",
            file="coffee.png", note="Rows differ in height: a long title wraps."),
    5: dict(title="宇宙飛行士 Eileen Collins 🚀 ロケット and 커피 ☕",
            file="astronaut.png", note="Wide characters (CJK, emoji) keep their columns."),
    7: dict(title="Hostile \u001b[31mred\u001b[0m \u001b]52;c;aGVsbG8=\u0007 clipboard \u009b2J bell\u0007 cr\rX",
            file="rocket.jpg", note="Escape sequences in a title are shown, never sent to the terminal."),
    11: dict(title="An item without any image", file=None, note="No image: the row says so."),
    13: dict(title="A truncated JPEG (the file stops after 400 bytes)", file="truncated.jpg",
             note="Drawn as far as it goes, or a failure glyph with the reason in this pane."),
    17: dict(title="A file that is not an image at all", file="broken.png",
             note="A corrupt image shows a failure glyph; the reason is here."),
}

def main():
    with open(os.path.join(shared, "jsonplaceholder", "data.json")) as f:
        photos = json.load(f)["photos"]
    credits = {p[0]: p for p in PHOTOS}
    credits["truncated.jpg"] = ("truncated.jpg", "Truncated JPEG", "JPEG, 400 bytes", "BSD-3-Clause, scikit-image")
    credits["broken.png"] = ("broken.png", "Not an image", "text", "ThumbTable")
    items = []
    for n in range(1, 121):
        record = photos[n - 1]
        special = SPECIAL.get(n)
        if special:
            title, file, note = special["title"], special["file"], special["note"]
        else:
            title = record["title"][0].upper() + record["title"][1:]
            file, note = PHOTOS[(n - 1) % len(PHOTOS)][0], None
        credit = credits.get(file)
        fields = [["Photo", str(record["id"])], ["Album", str(record["albumId"])]]
        if credit:
            fields += [["Picture", credit[1]], ["File", "photos/" + file], ["Format", credit[2]],
                       ["Licence", credit[3]]]
        if note:
            fields.append(["Note", note])
        items.append({
            "id": "photo-%d" % n,
            "title": title,
            "subtitle": ("%s · album %d" % (credit[1], record["albumId"])) if credit else "album %d" % record["albumId"],
            "fields": fields,
            "image": ("photos/" + file) if file else None,
            "attribution": ("Image from scikit-image sample data · " + credit[3]) if credit else None,
        })
    catalog = {
        "name": "Demo catalog",
        "attribution": "All images from the scikit-image sample data (public domain, CC0, BSD); "
                       "titles from jsonplaceholder (MIT)",
        "pageSize": 20,
        "items": items,
    }
    with open(os.path.join(here, "catalog.json"), "w") as f:
        json.dump(catalog, f, ensure_ascii=False, indent=1)
        f.write("\n")
    with open(os.path.join(here, "photos", "broken.png"), "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\nthis is not really a PNG file, its chunks are garbage\n")

if __name__ == "__main__":
    main()
