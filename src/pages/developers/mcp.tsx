import type { SiteData } from '../site.js'
import { Code, DocsTable, Section, shellArg } from './blocks.js'
import type { DeveloperDocsFacts } from './facts.js'

export function Mcp({ site, tools }: { site: SiteData; tools: DeveloperDocsFacts['tools'] }) {
  const { urls } = site
  return (
    <Section id="mcp">
      <p>
        <code>{urls.mcp}</code> speaks the <a href="https://modelcontextprotocol.io">Model Context Protocol</a> (2025-06-18) over streamable HTTP, so an AI
        assistant can look things up in the reviews and cite them. No key or token is needed; leave any token field blank.
      </p>
      <h3>Tools</h3>
      <p>All read-only. Each returns structured JSON with an output schema; bad arguments give a result with the same error body the HTTP API sends.</p>
      <DocsTable columns={['Tool', 'What it does']}>
        {tools.map((t) => (
          <tr>
            <th scope="row">
              <code>{t.name}</code>
            </th>
            <td>
              <strong>{t.title}.</strong> {t.description}
            </td>
          </tr>
        ))}
      </DocsTable>
      <h3>Resources and prompts</h3>
      <p>
        The datasets and feeds are resources under their public addresses (<code>{urls.reviews}</code>, <code>{urls.insights}</code>,{' '}
        <code>{urls.feedJson}</code>, <code>{urls.feedAtom}</code>), and each review under <code>{urls.base}/reviews/{'{id}'}</code>. A client that subscribes
        to a resource is told when it changes. The server also offers ready-made prompts (<code>prompts/list</code>) that set an assistant on the right tools
        for common questions.
      </p>
      <McpClients site={site} />
    </Section>
  )
}

function McpClients({ site }: { site: SiteData }) {
  const { urls } = site
  const serverName = `${site.business.id}-reviews`
  const desktopConfig = { mcpServers: { [serverName]: { command: 'npx', args: ['-y', 'mcp-remote', urls.mcp] } } }
  return (
    <>
      <h3>Claude Desktop</h3>
      <p>
        For an address on the public internet over HTTPS: <em>Settings → Connectors → Add custom connector</em>, with the address <code>{urls.mcp}</code>.
        Otherwise bridge it with <code>mcp-remote</code> in <code>claude_desktop_config.json</code>, then restart Claude Desktop:
      </p>
      <Code>{JSON.stringify(desktopConfig, null, 2)}</Code>
      <h3>Claude Code</h3>
      <Code>{`claude mcp add --transport http ${serverName} ${shellArg(urls.mcp)}`}</Code>
      <h3>MCP Inspector</h3>
      <p>
        Run the Inspector, choose the transport <em>Streamable HTTP</em> and enter <code>{urls.mcp}</code>:
      </p>
      <Code>{'npx @modelcontextprotocol/inspector'}</Code>
      <p>Or list the tools from a script:</p>
      <Code>{`npx @modelcontextprotocol/inspector --cli ${shellArg(urls.mcp)} --transport http --method tools/list`}</Code>
      <p class="quiet">
        The Inspector needs Node.js 22; on Node.js 20 use <code>npx @modelcontextprotocol/inspector-cli@1.0.3</code> with the same arguments. If the
        Inspector connects from the browser rather than through its proxy, the server must allow its origin: start it with{' '}
        <code>MCP_ALLOWED_ORIGINS=http://localhost:6274</code>.
      </p>
      <h3>Any other client</h3>
      <p>
        Cursor, VS Code and agent frameworks: add a "streamable HTTP" (or "HTTP") MCP server at <code>{urls.mcp}</code>.
      </p>
    </>
  )
}

