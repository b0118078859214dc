// A strict reader for the XML the CLI writes (JUnit reports), so tests parse it back instead of
// matching text; it throws on anything malformed (a raw `<` or `&`, an unknown entity, a bad tag).

export interface XmlElement {
  name: string
  attributes: Record<string, string>
  children: XmlElement[]
  /** The element's own text, references decoded (text between child elements included). */
  text: string
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const NAME = /[A-Za-z_][\w.-]*/y

function decode(raw: string, where: string): string {
  if (raw.includes('<')) throw new Error(`raw < in ${where}`)
  return raw.replace(/&([^;]*);|&/g, (match, entity: string | undefined) => {
    if (entity === undefined) throw new Error(`bare & in ${where}`)
    if (entity.startsWith('#x')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16))
    if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)))
    const value = ENTITIES[entity]
    if (value === undefined) throw new Error(`unknown entity &${entity}; in ${where}`)
    return value
  })
}

export function parseXml(source: string): XmlElement {
  let at = 0
  const fail = (what: string): never => {
    throw new Error(`XML: ${what} at offset ${at}`)
  }
  const skipSpace = () => {
    while (at < source.length && /\s/.test(source[at]!)) at++
  }
  const name = (): string => {
    NAME.lastIndex = at
    const match = NAME.exec(source)
    if (!match) fail('expected a name')
    at += match![0].length
    return match![0]
  }

  function element(): XmlElement {
    if (source[at] !== '<') fail('expected <')
    at++
    const node: XmlElement = { name: name(), attributes: {}, children: [], text: '' }
    for (;;) {
      skipSpace()
      if (source.startsWith('/>', at)) {
        at += 2
        return node
      }
      if (source[at] === '>') {
        at++
        break
      }
      const attribute = name()
      skipSpace()
      if (source[at] !== '=') fail('expected =')
      at++
      skipSpace()
      const quote = source[at]
      if (quote !== '"' && quote !== "'") fail('expected a quoted value')
      const end = source.indexOf(quote!, at + 1)
      if (end < 0) fail('unterminated attribute value')
      if (attribute in node.attributes) fail(`duplicate attribute ${attribute}`)
      node.attributes[attribute] = decode(source.slice(at + 1, end), `attribute ${attribute}`)
      at = end + 1
    }
    for (;;) {
      const next = source.indexOf('<', at)
      if (next < 0) fail(`unclosed <${node.name}>`)
      node.text += decode(source.slice(at, next), `<${node.name}>`)
      at = next
      if (source.startsWith('</', at)) {
        at += 2
        if (name() !== node.name) fail(`mismatched closing tag for <${node.name}>`)
        skipSpace()
        if (source[at] !== '>') fail('expected >')
        at++
        node.text = node.children.length > 0 ? node.text.trim() : node.text
        return node
      }
      node.children.push(element())
    }
  }

  const declaration = /^<\?xml[^?]*\?>/.exec(source)
  if (declaration) at = declaration[0].length
  skipSpace()
  const root = element()
  skipSpace()
  if (at !== source.length) fail('content after the root element')
  return root
}
