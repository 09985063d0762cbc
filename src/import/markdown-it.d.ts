/** The part of markdown-it (bundled; it ships no types) that the Markdown importer uses. */
declare module 'markdown-it' {
  export interface Token {
    type: string
    tag: string
    attrs: [string, string][] | null
    map: [number, number] | null
    nesting: 1 | 0 | -1
    level: number
    children: Token[] | null
    content: string
    markup: string
    info: string
    attrGet(name: string): string | null
  }
  export default class MarkdownIt {
    constructor(options?: { html?: boolean; breaks?: boolean; linkify?: boolean; typographer?: boolean })
    parse(src: string, env: object): Token[]
  }
}
