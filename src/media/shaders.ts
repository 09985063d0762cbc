/**
 * The shader material catalogue: `paper:<name>` entries over the fragment shaders of
 * @paper-design/shaders (Apache-2.0), and the `proto:*` engines that are not built.
 *
 * An entry names the package's fragment shader, a category (one of five chips), its own uniforms
 * with type, range and default (ranges as the package documents them), which palette colours its
 * colour uniforms take, and which uniforms the common controls drive. Nothing here draws: the
 * WebGL page is src/render/shader.ts. docs/media.md ("Shader materials") is the reader's account.
 *
 * A recipe's uniforms are stored by name without the GLSL `u_` prefix (`distortion` is
 * `u_distortion`), colours as `#rrggbb` (or `#rrggbbaa`), a colour list as an array (its count
 * uniform, `u_colorsCount`, is derived), a shape as its name (`wave`, drawn as its number). Every
 * entry also takes the package's sizing uniforms `scale`, `rotation`, `offsetX`, `offsetY`, and
 * `speed`, which is no GLSL uniform: the frame time `u_time` is anchor × speed / 1000 seconds.
 *
 * Pure: no Node imports beyond hashing, so the page could use it too.
 */
import { createHash } from 'node:crypto'
import { fail } from '../core/errors.js'
import type { Manifest } from '../model/deck.js'
import { colour, paintFor, type Appearance } from '../render/paint.js'

// ---------------------------------------------------------------------------------------------
// Categories, palettes, controls

/** The five category chips, in gallery order. */
export const CATEGORIES = [
  { id: 'gradient', label: 'Gradients', sentence: 'Soft fields of colour, still or drifting.' },
  { id: 'flow', label: 'Flow', sentence: 'Noise, warps and swirls that move like liquid or smoke.' },
  { id: 'pattern', label: 'Patterns', sentence: 'Dots, lines, cells and spirals on a grid.' },
  { id: 'light', label: 'Light', sentence: 'Rays, glows, panels and blobs of light on a dark ground.' },
  { id: 'texture', label: 'Texture', sentence: 'Surfaces: paper, water caustics, dithered grain.' },
] as const
export type Category = (typeof CATEGORIES)[number]['id']

/** A palette: a ground, up to five colours, and a front (ink) colour. */
export interface Palette {
  back: string
  colors: string[]
  front: string
}

/** The fixed palettes every entry offers, beside the three computed from the deck's brand kit. */
export const PALETTES: Record<string, { label: string; palette: Palette }> = {
  dusk: { label: 'Dusk', palette: { back: '#120c2c', colors: ['#ff6b6b', '#ffa94d', '#845ef7', '#2b1a66', '#f06595'], front: '#ffd8a8' } },
  ember: { label: 'Ember', palette: { back: '#160804', colors: ['#ff4500', '#ff9f1c', '#7a1500', '#ffbf69'], front: '#fff1d6' } },
  lagoon: { label: 'Lagoon', palette: { back: '#031a24', colors: ['#00b4a6', '#1d4e89', '#a8e6e2', '#4ea8de', '#0b7a75'], front: '#d6f5ff' } },
  meadow: { label: 'Meadow', palette: { back: '#10200f', colors: ['#a7c957', '#6a994e', '#f2e8cf', '#386641'], front: '#f2e8cf' } },
  fog: { label: 'Fog', palette: { back: '#f3f1ec', colors: ['#d9d4cb', '#b8c4cc', '#ffffff', '#9aa5ad'], front: '#2b2b2b' } },
  mono: { label: 'Mono', palette: { back: '#0a0a0a', colors: ['#f5f5f5', '#9e9e9e', '#424242', '#d6d6d6'], front: '#ffffff' } },
}

/** The presets computed from the deck's palette (its theme under its brand kit's overrides). */
export const BRAND_PRESETS = ['brand', 'brand-dark', 'brand-accent'] as const

export type ControlName = 'speed' | 'scale' | 'rotation' | 'offsetX' | 'offsetY' | 'hue' | 'saturation' | 'brightness' | 'blend' | 'intensity' | 'grain'

export interface Control {
  name: ControlName
  label: string
  min: number
  max: number
  step: number
  /** The value that changes nothing (speed 1, scale 1, hue 0, ...); blend, intensity and grain take the preset's. */
  neutral?: number
  sentence: string
  /** What the control writes, for the reader. */
  drives: string
}

/** The eleven common controls, in panel order. */
export const CONTROLS: Control[] = [
  { name: 'speed', label: 'Speed', min: 0, max: 3, step: 0.05, neutral: 1, sentence: 'How fast the material moves when it plays; a still frame lands at the anchor time multiplied by it.', drives: 'speed (u_time = anchor × speed)' },
  { name: 'scale', label: 'Scale', min: 0.25, max: 4, step: 0.05, neutral: 1, sentence: 'Zooms the whole material in (above 1) or out (below 1).', drives: 'scale (u_scale)' },
  { name: 'rotation', label: 'Rotation', min: 0, max: 360, step: 1, neutral: 0, sentence: 'Turns the whole material clockwise, in degrees.', drives: 'rotation (u_rotation)' },
  { name: 'offsetX', label: 'Offset X', min: -1, max: 1, step: 0.01, neutral: 0, sentence: 'Slides the material left or right, as a fraction of the frame.', drives: 'offsetX (u_offsetX)' },
  { name: 'offsetY', label: 'Offset Y', min: -1, max: 1, step: 0.01, neutral: 0, sentence: 'Slides the material up or down, as a fraction of the frame.', drives: 'offsetY (u_offsetY)' },
  { name: 'hue', label: 'Hue', min: -180, max: 180, step: 1, neutral: 0, sentence: "Turns every colour of the preset's palette around the colour wheel, in degrees.", drives: 'every colour uniform' },
  { name: 'saturation', label: 'Saturation', min: -1, max: 1, step: 0.01, neutral: 0, sentence: "Washes the preset's colours out towards grey (below 0) or makes them more vivid (above 0).", drives: 'every colour uniform' },
  { name: 'brightness', label: 'Brightness', min: -1, max: 1, step: 0.01, neutral: 0, sentence: "Darkens (below 0) or lightens (above 0) the preset's colours.", drives: 'every colour uniform' },
  { name: 'blend', label: 'Colour mix', min: 0, max: 1, step: 0.01, sentence: 'How softly neighbouring colours run into each other, from hard edges (0) to smooth gradients (1).', drives: "the entry's softness, mixing or bloom uniform" },
  { name: 'intensity', label: 'Intensity', min: 0, max: 1, step: 0.01, sentence: 'How strongly the material bends, distorts or glows: its main strength, from calm (0) to full (1).', drives: "the entry's distortion or intensity uniform" },
  { name: 'grain', label: 'Grain', min: 0, max: 1, step: 0.01, sentence: 'Film grain or roughness laid over the picture, from none (0) to heavy (1).', drives: "the entry's grain, noise or roughness uniform" },
]

const SIZING_CONTROLS: ControlName[] = ['speed', 'scale', 'rotation', 'offsetX', 'offsetY']
const COLOUR_CONTROLS: ControlName[] = ['hue', 'saturation', 'brightness']
const MAPPED_CONTROLS = ['blend', 'intensity', 'grain'] as const
type MappedControl = (typeof MAPPED_CONTROLS)[number]

// ---------------------------------------------------------------------------------------------
// Entries

/** Where a colour uniform takes its colour from the palette: its ground, its front, or colour n (1-based). */
type Role = 'back' | 'front' | 'c1' | 'c2' | 'c3'

export type UniformSpec =
  | { kind: 'number'; min: number; max: number; default: number; integer?: boolean; description: string }
  | { kind: 'color'; role: Role; description: string }
  | { kind: 'colors'; max: number; description: string }
  | { kind: 'enum'; values: Record<string, number>; default: string; description: string }
  | { kind: 'boolean'; default: boolean; description: string }

export interface MaterialEntry {
  id: string
  name: string
  label: string
  /** The package's export holding the fragment shader source. */
  shader: string
  category: Category
  sentence: string
  /** How the frame is fitted: object shaders are contained, patterns are drawn at their size, image-based ones cover. */
  fit: 'contain' | 'none' | 'cover'
  /** False for the still shaders (no u_time): speed and the anchor change nothing. */
  animated: boolean
  /** The featured palette preset. */
  featured: string
  /** The frame time a still takes when none is named, ms. */
  anchor: number
  uniforms: Record<string, UniformSpec>
  /** The uniforms blend, intensity and grain drive (each maps 0–1 onto the uniform's own range). */
  drive: Partial<Record<MappedControl, string[]>>
}

const n = (min: number, max: number, value: number, description: string, integer = false): UniformSpec => ({ kind: 'number', min, max, default: value, description, ...(integer ? { integer } : {}) })
const c = (role: Role, description: string): UniformSpec => ({ kind: 'color', role, description })
const colors = (max: number, description = 'The palette colours, in order.'): UniformSpec => ({ kind: 'colors', max, description })
const e = (values: Record<string, number>, value: string, description: string): UniformSpec => ({ kind: 'enum', values, default: value, description })
const GRAIN_MIXER = n(0, 1, 0, 'Grain distortion along colour edges.')
const GRAIN_OVERLAY = n(0, 1, 0, 'Black and white grain laid over the result.')

type EntrySource = Omit<MaterialEntry, 'id' | 'anchor'> & { anchor?: number; scale?: number }

/** The catalogue in gallery order (the featured material first, then the chips' order, mixed for the grid). */
const SOURCES: EntrySource[] = [
  {
    name: 'mesh-gradient', label: 'Mesh gradient', shader: 'meshGradientFragmentShader', category: 'gradient', fit: 'contain', animated: true, featured: 'dusk',
    sentence: 'Colour spots drifting along their own paths, blended and bent by soft noise.',
    uniforms: { colors: colors(10), distortion: n(0, 1, 0.8, 'Organic noise distortion.'), swirl: n(0, 1, 0.1, 'Vortex distortion.'), grainMixer: GRAIN_MIXER, grainOverlay: GRAIN_OVERLAY },
    drive: { intensity: ['distortion'], grain: ['grainOverlay'] },
  },
  {
    name: 'grain-gradient', label: 'Grain gradient', shader: 'grainGradientFragmentShader', category: 'gradient', fit: 'contain', animated: true, featured: 'ember',
    sentence: 'A grainy, noise-textured gradient in one of seven moving forms.',
    uniforms: {
      colorBack: c('back', 'The ground.'), colors: colors(7), softness: n(0, 1, 0.5, 'Colour transition: 0 a hard edge, 1 a smooth gradient.'), intensity: n(0, 1, 0.5, 'Distortion between the colour bands.'), noise: n(0, 1, 0.25, 'Grainy noise over the result.'),
      shape: e({ wave: 1, dots: 2, truchet: 3, corners: 4, ripple: 5, blob: 6, sphere: 7 }, 'corners', 'The form the gradient takes.'),
    },
    drive: { blend: ['softness'], intensity: ['intensity'], grain: ['noise'] },
  },
  {
    name: 'warp', label: 'Warp', shader: 'warpFragmentShader', category: 'flow', fit: 'none', animated: true, featured: 'lagoon',
    sentence: 'Colour fields warped by noise and swirls over checks, stripes or an edge: marbled, smoky, fluid.',
    uniforms: {
      colors: colors(10), proportion: n(0, 1, 0.45, 'Blend point between the colours; 0.5 shares them equally.'), softness: n(0, 1, 1, 'Colour transition: 0 a hard edge, 1 a smooth gradient.'),
      shape: e({ checks: 0, stripes: 1, edge: 2 }, 'checks', 'The base pattern under the warp.'), shapeScale: n(0, 1, 0.1, 'Zoom of the base pattern.'), distortion: n(0, 1, 0.25, 'Noise distortion.'), swirl: n(0, 1, 0.8, 'Swirl distortion.'), swirlIterations: n(0, 20, 10, 'Swirl passes layered over each other.', true),
    },
    drive: { blend: ['softness'], intensity: ['distortion'] },
  },
  {
    name: 'god-rays', label: 'God rays', shader: 'godRaysFragmentShader', category: 'light', fit: 'contain', animated: true, featured: 'ember',
    sentence: 'Rays of light turning out of a glowing centre.',
    uniforms: {
      colorBack: c('back', 'The ground.'), colorBloom: c('front', 'Colour blended over the rays.'), colors: colors(5, 'The ray colours.'), bloom: n(0, 1, 0.4, 'Bloom: 0 alpha blending, 1 additive.'), intensity: n(0, 1, 0.8, 'Strength of the rays.'),
      density: n(0, 1, 0.3, 'How many rays.'), spotty: n(0, 1, 0.3, 'Shorter, spottier rays.'), midSize: n(0, 1, 0.2, 'Size of the central glow.'), midIntensity: n(0, 1, 0.4, 'Brightness of the central glow.'),
    },
    drive: { blend: ['bloom'], intensity: ['intensity'] },
  },
  {
    name: 'dot-orbit', label: 'Dot orbit', shader: 'dotOrbitFragmentShader', category: 'pattern', fit: 'none', animated: true, featured: 'dusk',
    sentence: 'A grid of dots, each circling its own cell centre.',
    uniforms: {
      colorBack: c('back', 'The ground.'), colors: colors(10), stepsPerColor: n(1, 4, 2, 'Extra shades between palette colours.', true), size: n(0, 1, 0.8, 'Dot radius relative to its cell.'),
      sizeRange: n(0, 1, 0.4, 'Random variation of the dot size.'), spreading: n(0, 1, 0.6, 'How far a dot strays from its cell centre.'),
    },
    drive: { intensity: ['spreading'] },
  },
  {
    name: 'static-mesh-gradient', label: 'Still mesh gradient', shader: 'staticMeshGradientFragmentShader', category: 'gradient', fit: 'contain', animated: false, featured: 'lagoon',
    sentence: 'Up to ten colour spots, warped in two directions and blended into a still wallpaper.',
    uniforms: {
      colors: colors(10), positions: n(0, 100, 42, 'Seed of the spot placement.'), waveX: n(0, 1, 0.6, 'Sine wave distortion along x.'), waveXShift: n(0, 1, 0.6, 'Phase of the x wave.'),
      waveY: n(0, 1, 0.6, 'Sine wave distortion along y.'), waveYShift: n(0, 1, 0.2, 'Phase of the y wave.'), mixing: n(0, 1, 0.9, 'Blending: 0 hard stripes, 1 a gradual blend.'), grainMixer: GRAIN_MIXER, grainOverlay: GRAIN_OVERLAY,
    },
    drive: { blend: ['mixing'], intensity: ['waveX', 'waveY'], grain: ['grainOverlay'] },
  },
  {
    name: 'swirl', label: 'Swirl', shader: 'swirlFragmentShader', category: 'flow', fit: 'contain', animated: true, featured: 'ember',
    sentence: 'Bands of colour twisting into spirals, arcs and rings.',
    uniforms: {
      colorBack: c('back', 'The ground.'), colors: colors(10, 'The band colours.'), bandCount: n(0, 15, 4, 'Colour bands; 0 draws concentric ripples.', true), twist: n(0, 1, 0.15, 'Vortex power.'),
      center: n(0, 1, 0.2, 'Distance from the centre where the colours start.'), proportion: n(0, 1, 0.5, 'Blend point between the colours.'), softness: n(0, 1, 0.3, 'Colour transition: 0 a hard edge, 1 smooth.'),
      noise: n(0, 1, 0.2, 'Noise distortion.'), noiseFrequency: n(0, 1, 0.4, 'Noise frequency.'),
    },
    drive: { blend: ['softness'], intensity: ['twist'] },
  },
  {
    name: 'paper-texture', label: 'Paper', shader: 'paperTextureFragmentShader', category: 'texture', fit: 'cover', animated: false, featured: 'fog',
    sentence: 'A still paper or card surface built from fibres, crumples, folds and specks.',
    uniforms: {
      colorFront: c('front', 'Colour of the fibres and folds.'), colorBack: c('back', 'The paper.'), contrast: n(0, 1, 0.3, 'Sharper or smoother transitions.'), roughness: n(0, 1, 0.4, 'Pixel noise.'),
      fiber: n(0, 1, 0.3, 'Curly fibre noise.'), fiberSize: n(0, 1, 0.2, 'Size of the fibres.'), crumples: n(0, 1, 0.3, 'Crumple pattern.'), crumpleSize: n(0, 1, 0.35, 'Size of the crumples.'),
      folds: n(0, 1, 0.65, 'Depth of the folds.'), foldCount: n(1, 15, 5, 'Number of folds.', true), fade: n(0, 1, 0, 'Large-scale fade over the pattern.'), drops: n(0, 1, 0.2, 'Specks.'), seed: n(0, 1000, 5.8, 'Seed of folds, crumples and specks.'),
    },
    drive: { intensity: ['folds'], grain: ['roughness'] },
  },
  {
    name: 'simplex-noise', label: 'Simplex noise', shader: 'simplexNoiseFragmentShader', category: 'flow', fit: 'none', animated: true, featured: 'meadow',
    sentence: 'Smooth animated curves of colour, stepped through the palette.',
    uniforms: { colors: colors(10), stepsPerColor: n(1, 10, 2, 'Extra shades between palette colours.', true), softness: n(0, 1, 0, 'Colour transition: 0 a hard edge, 1 smooth.') },
    drive: { blend: ['softness'] },
  },
  {
    name: 'static-radial-gradient', label: 'Radial gradient', shader: 'staticRadialGradientFragmentShader', category: 'gradient', fit: 'contain', animated: false, featured: 'ember',
    sentence: 'A still radial gradient with a movable focal point and a rippled edge.',
    uniforms: {
      colorBack: c('back', 'The ground.'), colors: colors(10), radius: n(0, 3, 0.8, 'Size of the shape.'), focalDistance: n(0, 3, 0.99, 'Distance of the focal point from the centre.'),
      focalAngle: n(0, 360, 0, 'Angle of the focal point, degrees.'), falloff: n(-1, 1, 0.24, 'Decay; 0 is linear.'), mixing: n(0, 1, 0.5, 'Blending: 0 hard stripes, 1 smooth.'),
      distortion: n(0, 1, 0, 'Radial distortion.'), distortionShift: n(-1, 1, 0, 'Offset of the radial distortion.'), distortionFreq: n(0, 20, 12, 'Frequency of the radial distortion.'), grainMixer: GRAIN_MIXER, grainOverlay: GRAIN_OVERLAY,
    },
    drive: { blend: ['mixing'], intensity: ['distortion'], grain: ['grainOverlay'] },
  },
  {
    name: 'pulsing-border', label: 'Pulsing border', shader: 'pulsingBorderFragmentShader', category: 'light', fit: 'contain', animated: true, featured: 'dusk',
    sentence: 'Trails of light running round a glowing frame.',
    uniforms: {
      colorBack: c('back', 'The ground.'), colors: colors(5, 'The light colours.'), roundness: n(0, 1, 0.25, 'Corner radius.'), thickness: n(0, 1, 0.1, 'Width of the border.'), softness: n(0, 1, 0.75, 'Edge: 0 hard, 1 smooth.'),
      marginLeft: n(0, 1, 0, 'Space at the left.'), marginRight: n(0, 1, 0, 'Space at the right.'), marginTop: n(0, 1, 0, 'Space at the top.'), marginBottom: n(0, 1, 0, 'Space at the bottom.'),
      aspectRatio: e({ auto: 0, square: 1 }, 'auto', 'The frame follows the box (auto) or stays square.'), intensity: n(0, 1, 0.2, 'Thickness of the light spots.'), bloom: n(0, 1, 0.25, 'Glow: 0 normal blending, 1 additive.'),
      spots: n(1, 4, 3, 'Spots per colour.', true), spotSize: n(0, 1, 0.5, 'Angular size of the spots.'), pulse: n(0, 1, 0.25, 'Pulsing.'), smoke: n(0, 1, 0.3, 'Noisy smoke beyond the border.'), smokeSize: n(0, 1, 0.6, 'Size of the smoke.'),
    },
    drive: { blend: ['softness'], intensity: ['intensity'] },
  },
  {
    name: 'neuro-noise', label: 'Neuro noise', shader: 'neuroNoiseFragmentShader', category: 'flow', fit: 'none', animated: true, featured: 'dusk',
    sentence: 'A glowing web of fluid lines and soft crossings.',
    uniforms: { colorFront: c('front', 'Highlight colour.'), colorMid: c('c1', 'Main colour of the lines.'), colorBack: c('back', 'The ground.'), brightness: n(0, 1, 0.05, 'Luminosity of the crossings.'), contrast: n(0, 1, 0.3, 'Sharpness of the bright-dark transition.') },
    drive: { intensity: ['brightness'] },
  },
  {
    name: 'waves', label: 'Waves', shader: 'wavesFragmentShader', category: 'pattern', fit: 'none', animated: false, featured: 'fog',
    sentence: 'Still wavy lines, from sharp zigzags to smooth, irregular waves.',
    uniforms: {
      colorFront: c('front', 'The lines.'), colorBack: c('back', 'The ground.'), shape: n(0, 3, 1, 'Line shape: 0 zigzag, 1 sine, 2 to 3 irregular; fractions morph.'), frequency: n(0, 2, 0.5, 'Wave frequency.'),
      amplitude: n(0, 1, 0.5, 'Wave amplitude.'), spacing: n(0, 2, 1.2, 'Space between lines.'), proportion: n(0, 1, 0.1, 'Blend point between line and ground.'), softness: n(0, 1, 0, 'Edge: 0 hard, 1 smooth.'),
    },
    drive: { blend: ['softness'], intensity: ['amplitude'] },
  },
  {
    name: 'color-panels', label: 'Colour panels', shader: 'colorPanelsFragmentShader', category: 'light', fit: 'contain', animated: true, featured: 'lagoon',
    sentence: 'Translucent panels of colour turning around a central axis.',
    uniforms: {
      colors: colors(7, 'The panel colours.'), colorBack: c('back', 'The ground.'), density: n(0.25, 7, 3, 'Angle between panels.'), angle1: n(-1, 1, 0, 'Skew of the panels.'), angle2: n(-1, 1, 0, 'Second skew of the panels.'),
      length: n(0, 3, 1.1, 'Panel length relative to the height.'), edges: { kind: 'boolean', default: false, description: 'Highlight the panel edges.' }, blur: n(0, 0.5, 0, 'Side blur; 0 is sharp.'),
      fadeIn: n(0, 1, 1, 'Transparency near the axis.'), fadeOut: n(0, 1, 0.3, 'Transparency near the viewer.'), gradient: n(0, 1, 0, 'Colour mixing within a panel: 0 solid, 1 gradient.'),
    },
    drive: { blend: ['gradient'], intensity: ['fadeIn'] },
  },
  {
    name: 'perlin-noise', label: 'Perlin noise', shader: 'perlinNoiseFragmentShader', category: 'flow', fit: 'none', animated: true, featured: 'lagoon', scale: 2.5,
    sentence: 'Animated three-dimensional Perlin noise in two colours.',
    uniforms: {
      colorFront: c('front', 'Foreground.'), colorBack: c('back', 'The ground.'), proportion: n(0, 1, 0.45, 'Blend point between the two colours.'), softness: n(0, 1, 0.35, 'Edge: 0 hard, 1 smooth.'),
      octaveCount: n(1, 8, 2, 'Octaves: more for more detail.', true), persistence: n(0.3, 1, 1, 'Roughness: falloff between octaves.'), lacunarity: n(1.5, 10, 1.5, 'Frequency step between octaves.'),
    },
    drive: { blend: ['softness'], intensity: ['persistence'] },
  },
  {
    name: 'voronoi', label: 'Voronoi', shader: 'voronoiFragmentShader', category: 'pattern', fit: 'none', animated: true, featured: 'meadow',
    sentence: 'Moving cells with smooth edges and an inner glow.',
    uniforms: {
      colors: colors(5, 'The cell colours.'), stepsPerColor: n(1, 3, 3, 'Extra shades between palette colours.', true), colorGlow: c('front', 'Glow inside the cells.'), colorGap: c('back', 'The borders between cells.'),
      distortion: n(0, 0.5, 0.4, 'Displacement of the cell centres.'), gap: n(0, 0.1, 0.04, 'Width of the borders.'), glow: n(0, 1, 0, 'Inner glow.'),
    },
    drive: { blend: ['glow'], intensity: ['distortion'] },
  },
  {
    name: 'smoke-ring', label: 'Smoke ring', shader: 'smokeRingFragmentShader', category: 'flow', fit: 'contain', animated: true, featured: 'lagoon',
    sentence: 'A ring of many-coloured smoke shaped by layered noise.',
    uniforms: {
      colorBack: c('back', 'The ground.'), colors: colors(10), thickness: n(0.01, 1, 0.65, 'Thickness of the ring.'), radius: n(0, 1, 0.25, 'Radius of the ring.'), innerShape: n(0, 4, 0.7, 'How much the ring fills inwards.'),
      noiseScale: n(0.01, 5, 3, 'Noise frequency.'), noiseIterations: n(1, 8, 8, 'Noise layers.', true),
    },
    drive: { intensity: ['innerShape'] },
  },
  {
    name: 'dot-grid', label: 'Dot grid', shader: 'dotGridFragmentShader', category: 'pattern', fit: 'none', animated: false, featured: 'mono',
    sentence: 'A still grid of circles, diamonds, squares or triangles.',
    uniforms: {
      colorBack: c('back', 'The ground.'), colorFill: c('c1', 'Fill of the shapes.'), colorStroke: c('c2', 'Outline of the shapes.'), dotSize: n(1, 100, 6, 'Size of a shape, px.'),
      gapX: n(2, 500, 48, 'Horizontal spacing, px.'), gapY: n(2, 500, 48, 'Vertical spacing, px.'), strokeWidth: n(0, 50, 0, 'Outline width, px.'), sizeRange: n(0, 1, 0, 'Random variation of the size.'),
      opacityRange: n(0, 1, 0, 'Random variation of the opacity.'), shape: e({ circle: 0, diamond: 1, square: 2, triangle: 3 }, 'circle', 'The shape.'),
    },
    drive: { intensity: ['sizeRange'], grain: ['opacityRange'] },
  },
  {
    name: 'metaballs', label: 'Metaballs', shader: 'metaballsFragmentShader', category: 'light', fit: 'contain', animated: true, featured: 'ember',
    sentence: 'Gooey blobs moving round the centre and merging.',
    uniforms: { colorBack: c('back', 'The ground.'), colors: colors(8, 'The blob colours.'), count: n(1, 20, 10, 'Number of blobs.', true), size: n(0, 1, 0.83, 'Size of the blobs.'), sizeRange: n(0, 1, 0, 'Random variation of the size.') },
    drive: { intensity: ['size'] },
  },
  {
    name: 'spiral', label: 'Spiral', shader: 'spiralFragmentShader', category: 'pattern', fit: 'none', animated: true, featured: 'mono',
    sentence: 'A one-colour spiral, from crisp thin lines to a whirlpool of wavy rings.',
    uniforms: {
      colorBack: c('back', 'The ground.'), colorFront: c('front', 'The spiral.'), density: n(0, 1, 1, 'Spacing falloff, as perspective; 0 is flat.'), distortion: n(0, 1, 0, 'Distortion along the spiral.'),
      strokeWidth: n(0, 1, 0.5, 'Thickness of the curve.'), strokeTaper: n(0, 1, 0, 'Loss of width away from the centre.'), strokeCap: n(0, 1, 0, 'Extra width at the centre.'),
      noise: n(0, 1, 0, 'Noise distortion.'), noiseFrequency: n(0, 1, 0, 'Noise frequency.'), softness: n(0, 1, 0, 'Edge: 0 hard, 1 smooth.'),
    },
    drive: { blend: ['softness'], intensity: ['distortion'] },
  },
  {
    name: 'water', label: 'Water', shader: 'waterFragmentShader', category: 'texture', fit: 'cover', animated: true, featured: 'lagoon',
    sentence: 'Water caustics: light rippling over the ground as through a moving surface.',
    uniforms: {
      colorBack: c('back', 'The ground.'), colorHighlight: c('front', 'Colour of the caustic light.'), highlights: n(0, 1, 0.2, 'Light added along the caustics.'), layering: n(0, 1, 0.5, 'A second caustic layer.'),
      edges: n(0, 1, 0.8, 'Distortion at the edges.'), waves: n(0, 1, 0.3, 'Extra noise distortion.'), caustic: n(0, 1, 0.1, 'Caustic distortion.'), size: n(0.01, 7, 1, 'Pattern scale.'),
    },
    drive: { blend: ['highlights'], intensity: ['caustic'] },
  },
  {
    name: 'dithering', label: 'Dithering', shader: 'ditheringFragmentShader', category: 'texture', fit: 'none', animated: true, featured: 'mono',
    sentence: 'A two-colour dithered screen over a moving pattern.',
    uniforms: {
      colorBack: c('back', 'The ground.'), colorFront: c('front', 'The ink.'), shape: e({ simplex: 1, warp: 2, dots: 3, wave: 4, ripple: 5, swirl: 6, sphere: 7 }, 'warp', 'The pattern under the screen.'),
      type: e({ random: 1, '2x2': 2, '4x4': 3, '8x8': 4 }, '8x8', 'The dither: random or a Bayer matrix.'), pxSize: n(0.5, 20, 2, 'Size of a dither pixel, px.'),
    },
    drive: {},
  },
]

const SIZING: Record<string, UniformSpec> = {
  scale: n(0.01, 4, 1, 'Zoom of the whole material.'),
  rotation: n(0, 360, 0, 'Rotation of the whole material, degrees.'),
  offsetX: n(-1, 1, 0, 'Horizontal offset of the centre.'),
  offsetY: n(-1, 1, 0, 'Vertical offset of the centre.'),
  speed: n(0, 3, 1, 'Not a GLSL uniform: multiplies the anchor into the frame time u_time.'),
}

export const MATERIALS: MaterialEntry[] = SOURCES.map(({ scale, ...s }) => ({
  ...s,
  id: `paper:${s.name}`,
  anchor: s.anchor ?? 2400,
  uniforms: { ...s.uniforms, ...SIZING, ...(scale ? { scale: { ...SIZING.scale, default: scale } as UniformSpec } : {}) },
}))

/** Engines of the `proto:` family: prototypes named by the spec's catalogue, none built here. */
export const ENGINES = [
  { id: 'proto:fluid', label: 'Fluid simulation', available: false, reason: 'A stateful simulation: frames depend on every frame before them, so a still cannot be drawn from a recipe and a time. Not built on this instance.' },
  { id: 'proto:particles', label: 'Particles', available: false, reason: 'A stateful particle system; not built on this instance.' },
  { id: 'proto:reaction-diffusion', label: 'Reaction–diffusion', available: false, reason: 'A stateful simulation; not built on this instance.' },
]

export function findMaterial(id: string, pointer = '/materialId'): MaterialEntry {
  const entry = MATERIALS.find((m) => m.id === id)
  if (entry) return entry
  const engine = ENGINES.find((m) => m.id === id)
  if (engine) fail('not_implemented', `${id} is a prototype engine, not available on this instance: ${engine.reason}`, { pointer, details: { implemented: false } })
  return fail('not_found', `No material "${id}"; material.list names the catalogue (paper:mesh-gradient, paper:grain-gradient, ...).`, { pointer })
}

/** The controls an entry takes: the sizing and colour ones always, blend, intensity and grain where it maps them. */
export function controlsOf(entry: MaterialEntry): Control[] {
  return CONTROLS.filter((control) => !(MAPPED_CONTROLS as readonly string[]).includes(control.name) || entry.drive[control.name as MappedControl]?.length)
}

// ---------------------------------------------------------------------------------------------
// Colours

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i

/** `#rgb`, `#rrggbb` or `#rrggbbaa` as [r, g, b, a] in 0..1. */
export function rgba(hex: string): [number, number, number, number] {
  let h = hex.slice(1)
  if (h.length === 3) h = [...h].map((ch) => ch + ch).join('')
  const v = (i: number) => parseInt(h.slice(i, i + 2), 16) / 255
  return [v(0), v(2), v(4), h.length === 8 ? v(6) : 1]
}

const hex2 = (v: number) =>
  Math.round(Math.min(1, Math.max(0, v)) * 255)
    .toString(16)
    .padStart(2, '0')
function toHex([r, g, b, a]: number[]): string {
  return `#${hex2(r)}${hex2(g)}${hex2(b)}${a < 1 ? hex2(a) : ''}`
}

function toHsl(r: number, g: number, b: number): [number, number, number] {
  const max = Math.max(r, g, b)
  const min = Math.min(r, g, b)
  const l = (max + min) / 2
  if (max === min) return [0, 0, l]
  const d = max - min
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min)
  const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4
  return [h * 60, s, l]
}

function fromHsl(h: number, s: number, l: number): [number, number, number] {
  const k = (m: number) => (m + h / 30) % 12
  const a = s * Math.min(l, 1 - l)
  const f = (m: number) => l - a * Math.max(-1, Math.min(k(m) - 3, Math.min(9 - k(m), 1)))
  return [f(0), f(8), f(4)]
}

/** A colour turned by `hue` degrees, its saturation and lightness pushed by -1..1 (0 changes nothing). */
export function adjustColour(hex: string, hue: number, saturation: number, brightness: number): string {
  if (!hue && !saturation && !brightness) return hex.toLowerCase()
  const [r, g, b, a] = rgba(hex)
  let [h, s, l] = toHsl(r, g, b)
  h = (((h + hue) % 360) + 360) % 360
  s = Math.min(1, Math.max(0, saturation >= 0 ? s + (1 - s) * saturation : s * (1 + saturation)))
  l = Math.min(1, Math.max(0, brightness >= 0 ? l + (1 - l) * brightness : l * (1 + brightness)))
  return toHex([...fromHsl(h, s, l), a])
}

/** Mixes two hex colours: 0 is `a`, 1 is `b`. */
function mix(a: string, b: string, t: number): string {
  const x = rgba(a)
  const y = rgba(b)
  return toHex(x.map((v, i) => v + (y[i] - v) * t))
}

// ---------------------------------------------------------------------------------------------
// Presets

export interface Preset {
  name: string
  label: string
  /** catalog: a fixed palette; brand: computed from the deck's theme and brand kit. */
  source: 'catalog' | 'brand'
  palette: Palette
}

const unique = (list: string[]) => [...new Set(list.map((v) => v.toLowerCase()))]

/**
 * The palette presets of a deck: the fixed ones, then brand (paper ground, the accent and chart
 * colours, ink front), brand-dark (the same tokens in the dark appearance) and brand-accent (tints
 * and shades of the accent). With no deck, Simple's palette stands in for the brand kit.
 */
export function presetsFor(manifest?: Pick<Manifest, 'theme' | 'brandKit' | 'defaults'>): Preset[] {
  const fixed: Preset[] = Object.entries(PALETTES).map(([name, p]) => ({ name, label: p.label, source: 'catalog', palette: { ...p.palette, colors: [...p.palette.colors] } }))
  const source = manifest ?? { theme: 'simple' }
  const tokens = (appearance: Appearance) => {
    const paint = paintFor(source, appearance)
    const t = (name: string) => colour(paint, name, 'accent')
    return { paper: t('paper'), ink: t('ink'), accent: t('accent'), charts: unique([t('accent'), t('chart2'), t('chart3'), t('chart4'), t('chart5')]) }
  }
  const appearance = manifest?.defaults?.appearance ?? 'light'
  const main = tokens(appearance)
  const dark = tokens('dark')
  const brand: Preset[] = [
    { name: 'brand', label: 'Brand', source: 'brand', palette: { back: main.paper, colors: main.charts, front: main.ink } },
    { name: 'brand-dark', label: 'Brand, dark', source: 'brand', palette: { back: dark.paper, colors: dark.charts, front: dark.ink } },
    {
      name: 'brand-accent',
      label: 'Brand accent',
      source: 'brand',
      palette: { back: main.paper, colors: unique([main.accent, mix(main.accent, main.paper, 0.45), mix(main.accent, main.ink, 0.35), mix(main.accent, main.paper, 0.75)]), front: main.accent },
    },
  ]
  return [...fixed, ...brand]
}

/** The colour uniforms of an entry filled from a palette. */
export function paletteUniforms(entry: MaterialEntry, palette: Palette): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  const pick = (role: Role) => (role === 'back' ? palette.back : role === 'front' ? palette.front : palette.colors[(Number(role.slice(1)) - 1) % palette.colors.length])
  for (const [name, spec] of Object.entries(entry.uniforms)) {
    if (spec.kind === 'color') out[name] = pick(spec.role).toLowerCase()
    else if (spec.kind === 'colors') out[name] = palette.colors.slice(0, spec.max).map((v) => v.toLowerCase())
  }
  return out
}

function findPreset(presets: Preset[], name: string, pointer: string): Preset {
  const preset = presets.find((p) => p.name === name)
  if (!preset) fail('invalid_input', `No preset "${name}"; the presets are ${presets.map((p) => p.name).join(', ')}.`, { pointer })
  return preset!
}

// ---------------------------------------------------------------------------------------------
// Uniforms and controls

export type Uniforms = Record<string, number | string | boolean | string[]>
export type Controls = Partial<Record<ControlName, number>>

const round = (v: number) => Math.round(v * 1e4) / 1e4

/** Defaults of an entry's numbers, shapes and switches (colours come from a preset). */
function defaults(entry: MaterialEntry): Uniforms {
  const out: Uniforms = {}
  for (const [name, spec] of Object.entries(entry.uniforms)) if (spec.kind === 'number' || spec.kind === 'enum' || spec.kind === 'boolean') out[name] = spec.default
  return out
}

/** Checks a uniform record against an entry's schema: unknown names, types, ranges, colours. */
export function checkUniforms(entry: MaterialEntry, uniforms: Record<string, unknown>, pointer = '/uniforms'): void {
  for (const [name, value] of Object.entries(uniforms)) {
    const at = `${pointer}/${name}`
    const spec = Object.hasOwn(entry.uniforms, name) ? entry.uniforms[name] : undefined
    if (!spec) fail('unknown_field', `${entry.id} has no uniform "${name}"; it takes ${Object.keys(entry.uniforms).join(', ')}.`, { pointer: at })
    const bad = (what: string): never => fail('invalid_input', `Uniform ${name} of ${entry.id} ${what}.`, { pointer: at })
    switch (spec!.kind) {
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value)) bad('is a number')
        if ((value as number) < spec!.min || (value as number) > spec!.max) bad(`runs from ${spec!.min} to ${spec!.max}`)
        if (spec!.integer && !Number.isInteger(value)) bad('is a whole number')
        break
      case 'color':
        if (typeof value !== 'string' || !HEX.test(value)) bad('is a colour: #rgb, #rrggbb or #rrggbbaa')
        break
      case 'colors':
        if (!Array.isArray(value) || !value.length || value.length > spec!.max || value.some((v) => typeof v !== 'string' || !HEX.test(v))) bad(`is a list of 1 to ${spec!.max} colours (#rrggbb)`)
        break
      case 'enum':
        if (typeof value !== 'string' || !Object.hasOwn(spec!.values, value)) bad(`is one of ${Object.keys(spec!.values).join(', ')}`)
        break
      case 'boolean':
        if (typeof value !== 'boolean') bad('is true or false')
    }
  }
}

/** Checks control values: names the entry takes, numbers in range. */
export function checkControls(entry: MaterialEntry, controls: Record<string, unknown>, pointer = '/controls'): void {
  const taken = controlsOf(entry)
  for (const [name, value] of Object.entries(controls)) {
    const control = taken.find((k) => k.name === name)
    if (!control) {
      const known = CONTROLS.some((k) => k.name === name)
      fail(known ? 'invalid_input' : 'unknown_field', known ? `${entry.id} has no ${name} control; it takes ${taken.map((k) => k.name).join(', ')}.` : `No control "${name}"; the controls are ${CONTROLS.map((k) => k.name).join(', ')}.`, { pointer: `${pointer}/${name}` })
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < control!.min || value > control!.max) {
      fail('invalid_input', `The ${name} control runs from ${control!.min} to ${control!.max}.`, { pointer: `${pointer}/${name}` })
    }
  }
}

/** The uniforms of an entry under a preset alone: defaults, then the palette's colours. */
function presetBase(entry: MaterialEntry, palette: Palette): Uniforms {
  return { ...defaults(entry), ...paletteUniforms(entry, palette) }
}

/** Where the controls stand for a set of uniforms: sizing read back, mapped ones as fractions of their uniform's range, colour ones at 0. */
export function controlsFrom(entry: MaterialEntry, uniforms: Uniforms): Controls {
  const out: Controls = {}
  for (const control of controlsOf(entry)) {
    if ((SIZING_CONTROLS as string[]).includes(control.name)) out[control.name] = round(Number(uniforms[control.name] ?? control.neutral))
    else if ((COLOUR_CONTROLS as string[]).includes(control.name)) out[control.name] = 0
    else {
      const target = entry.drive[control.name as MappedControl]![0]
      const spec = entry.uniforms[target] as Extract<UniformSpec, { kind: 'number' }>
      out[control.name] = round((Number(uniforms[target] ?? spec.default) - spec.min) / (spec.max - spec.min))
    }
  }
  return out
}

/**
 * Writes controls into uniforms. Sizing controls set their uniform; blend, intensity and grain map
 * 0–1 onto each driven uniform's range; hue, saturation and brightness recolour the palette's
 * colours (all three read from `all`, so one write keeps the others).
 */
function applyControls(entry: MaterialEntry, uniforms: Uniforms, palette: Palette, changed: Controls, all: Controls): Uniforms {
  const out = { ...uniforms }
  for (const [name, value] of Object.entries(changed) as [ControlName, number][]) {
    if ((SIZING_CONTROLS as string[]).includes(name)) out[name] = value
    else if ((MAPPED_CONTROLS as readonly string[]).includes(name)) {
      for (const target of entry.drive[name as MappedControl] ?? []) {
        const spec = entry.uniforms[target] as Extract<UniformSpec, { kind: 'number' }>
        const v = spec.min + value * (spec.max - spec.min)
        out[target] = spec.integer ? Math.round(v) : v
      }
    }
  }
  if (COLOUR_CONTROLS.some((name) => changed[name] !== undefined)) {
    const recolour = (v: string) => adjustColour(v, all.hue ?? 0, all.saturation ?? 0, all.brightness ?? 0)
    for (const [name, v] of Object.entries(paletteUniforms(entry, palette))) out[name] = Array.isArray(v) ? v.map(recolour) : recolour(v)
  }
  return tidy(out)
}

/** Numbers rounded to four places: one spelling per recipe (stored JSON orders the keys). */
function tidy(uniforms: Uniforms): Uniforms {
  return Object.fromEntries(Object.entries(uniforms).map(([name, v]) => [name, typeof v === 'number' ? round(v) : v]))
}

export interface RecipeInput {
  preset?: string
  controls?: Controls
  uniforms?: Record<string, unknown>
}

/**
 * The resolved uniforms of a recipe: the entry's defaults, the preset's palette (the featured one
 * when none is named), the controls, then the named uniforms over all of them.
 */
export function resolveUniforms(entry: MaterialEntry, input: RecipeInput, presets: Preset[], pointers = { preset: '/preset', controls: '/controls', uniforms: '/uniforms' }): Uniforms {
  const preset = findPreset(presets, input.preset ?? entry.featured, pointers.preset)
  if (input.controls) checkControls(entry, input.controls, pointers.controls)
  if (input.uniforms) checkUniforms(entry, input.uniforms, pointers.uniforms)
  const base = tidy(presetBase(entry, preset.palette))
  const at = controlsFrom(entry, base)
  // A control at the preset's own position changes nothing (no rounding drift through the range).
  const changed = Object.fromEntries(Object.entries(input.controls ?? {}).filter(([name, v]) => at[name as ControlName] !== v)) as Controls
  const controlled = applyControls(entry, base, preset.palette, changed, { ...at, ...input.controls })
  return tidy({ ...controlled, ...(input.uniforms as Uniforms | undefined) })
}

/**
 * A control write on a block: the block's uniforms (or the preset's) with only the named controls
 * applied, so uniforms set by hand stay. A control removed (null) goes back to the preset's position.
 */
export function writeControls(entry: MaterialEntry, current: { preset?: string; controls?: Controls; uniforms?: Uniforms }, written: Record<string, number | null>, presets: Preset[]): { controls: Controls; uniforms: Uniforms } {
  const preset = findPreset(presets, current.preset ?? entry.featured, '/path')
  const base = tidy(presetBase(entry, preset.palette))
  const at = controlsFrom(entry, base)
  const given = Object.fromEntries(Object.entries(written).filter(([, v]) => v !== null)) as Controls
  checkControls(entry, given, '/value')
  const changed: Controls = {}
  for (const [name, v] of Object.entries(written)) changed[name as ControlName] = v === null ? at[name as ControlName] : v
  const controls = { ...at, ...current.controls, ...changed }
  const uniforms = applyControls(entry, current.uniforms ?? base, preset.palette, changed, controls)
  return { controls, uniforms }
}

/** The controls stored on a new block: every control the entry takes, where the resolved recipe puts it. */
export function blockControls(entry: MaterialEntry, given: Controls | undefined, uniforms: Uniforms): Controls {
  const at = controlsFrom(entry, uniforms)
  const out: Controls = {}
  for (const control of controlsOf(entry)) out[control.name] = given?.[control.name] ?? at[control.name]
  return out
}

// ---------------------------------------------------------------------------------------------
// Recipes and frames

/** The long side of a frame, px: the sheet's 1600 at 2x. */
export const FRAME_LONG_SIDE = 3200

export interface Recipe {
  materialId: string
  preset: string
  uniforms: Uniforms
  /** Frame time, ms. */
  anchor: number
  /** Width over height of the box the frame fills, four places. */
  aspect: number
}

/** JSON with object keys sorted at every depth: the canonical spelling a key is hashed from. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(value)
}

/**
 * The key of a frame: the first 16 hex digits of SHA-256 over the canonical JSON (keys sorted, no
 * spaces) of `{ anchor, aspect, materialId, preset, uniforms }`, uniforms resolved and rounded to
 * four places. Two recipes that draw the same frame share it; the frame file is
 * `assets/frame-<frameKey>@2x.png`.
 */
export function frameKey(recipe: Recipe): string {
  const { materialId, preset, uniforms, anchor, aspect } = recipe
  return createHash('sha256').update(canonical({ anchor, aspect, materialId, preset, uniforms })).digest('hex').slice(0, 16)
}

export const aspectOf = (w: number, h: number) => round(w / h)

/** The frame size of an aspect: long side 3200 (or `long`), the other side rounded. */
export function frameSize(aspect: number, long = FRAME_LONG_SIDE): [number, number] {
  return aspect >= 1 ? [long, Math.max(1, Math.round(long / aspect))] : [Math.max(1, Math.round(long * aspect)), long]
}

// ---------------------------------------------------------------------------------------------
// Listings

/** An entry's uniform schema for listings: JSON Schema with ranges, each member naming its GLSL uniform. */
export function uniformSchema(entry: MaterialEntry): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {}
  for (const [name, spec] of Object.entries(entry.uniforms)) {
    const glsl = name === 'speed' ? null : `u_${name}`
    switch (spec.kind) {
      case 'number':
        out[name] = { type: spec.integer ? 'integer' : 'number', minimum: spec.min, maximum: spec.max, default: spec.default, uniform: glsl, glslType: glsl && 'float', description: spec.description }
        break
      case 'color':
        out[name] = { type: 'string', format: 'color', pattern: HEX.source, palette: spec.role, uniform: glsl, glslType: 'vec4', description: spec.description }
        break
      case 'colors':
        out[name] = { type: 'array', items: { type: 'string', format: 'color', pattern: HEX.source }, minItems: 1, maxItems: spec.max, palette: 'colors', uniform: glsl, glslType: `vec4[${spec.max}]`, count: 'u_colorsCount', description: spec.description }
        break
      case 'enum':
        out[name] = { type: 'string', enum: Object.keys(spec.values), default: spec.default, values: spec.values, uniform: glsl, glslType: 'float', description: spec.description }
        break
      case 'boolean':
        out[name] = { type: 'boolean', default: spec.default, uniform: glsl, glslType: 'bool', description: spec.description }
    }
  }
  return out
}

/** A catalogue entry as material.list gives it. */
export function materialRecord(entry: MaterialEntry, presets: Preset[]) {
  return {
    id: entry.id,
    name: entry.label,
    category: entry.category,
    sentence: entry.sentence,
    animated: entry.animated,
    anchor: entry.anchor,
    uniforms: uniformSchema(entry),
    presets: presets.map((p) => ({ name: p.name, label: p.label, source: p.source, uniforms: tidy(presetBase(entry, p.palette)) })),
  }
}

/** A catalogue entry as shader.list gives it: the material record plus the gallery's fields. */
export function shaderRecord(entry: MaterialEntry, presets: Preset[], stills: (entry: MaterialEntry) => string[]) {
  const record = materialRecord(entry, presets)
  return { ...record, featured: entry.featured, stills: stills(entry), controls: controlsOf(entry).map((k) => k.name), drives: entry.drive }
}
