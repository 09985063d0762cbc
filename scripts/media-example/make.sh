#!/bin/sh
# The slide docs/media.md shows: a shader background (paper:mesh-gradient), a two-tone picture and a
# catalogue logo, built with the CLI in a scratch workspace and drawn by `studio render`.
# Run from the repository root after `npm run build`: sh scripts/media-example/make.sh
set -e
root=$(pwd)
studio="node $root/bin/studio.js"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
git init -q
$studio init . --json > /dev/null
$studio deck create "Harbour report" --from blank --id harbour > /dev/null
$studio asset add "$root/scripts/media-example/harbour.svg" --id harbour --role picture --alt "Cranes at the harbour at sunset" --two-tone --plate lower-right
$studio slide background-material title-1 paper:mesh-gradient
$studio slide patch title-1 --input '{"mutations":[{"kind":"block.insert","block":{"id":"photo","kind":"picture","asset":"harbour","pos":{"x":860,"y":150,"w":600,"h":450},"caption":"Cranes at the harbour, two-tone"}}]}'
$studio block dither 'title-1#photo' --pattern bayer8 --cell 2
$studio logo insert github --slide title-1 --input '{"box":{"x":120,"y":110,"w":96,"h":96}}'
$studio block set 'title-1#title' /pos '{"x":120,"y":640,"w":760,"h":130}'
$studio render title-1 --scale 1 --json > render.json
cp "$(node -e "console.log(require('./render.json').renders[0].file)")" "$root/docs/images/media-slide.light.png"
echo "wrote docs/images/media-slide.light.png"
