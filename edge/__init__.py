"""What every entry point (MCP, REST, the web, OAuth) shares at its edge, below the entry points and
above the domain: the client address, the rate counter, credential → Principal, the plan's request
rate, store errors → HTTP status and body, and a database outage → the `unavailable` answer."""
