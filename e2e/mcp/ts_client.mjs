// The official TypeScript MCP client, with its default options (a 60 s request timeout that
// progress does not reset), driving `provide-choice serve` over stdio for e2e/test_ts_client.py.
// argv: the server command and its arguments. stdin: one JSON object of tool arguments per line;
// each call's result goes to stdout as one JSON line, {"result": ...} or {"error": "..."}.
import readline from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: "ts-sdk-e2e", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command, args, env: process.env, stderr: "ignore" }));
process.stdout.write(`${JSON.stringify({ server: client.getServerVersion() })}\n`);

for await (const line of readline.createInterface({ input: process.stdin })) {
  try {
    const result = await client.callTool({ name: "provide_choice", arguments: JSON.parse(line) });
    process.stdout.write(`${JSON.stringify({ result })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`);
  }
}
await client.close();
