// Code that verifies a delivery's signature (Standard Webhooks), for Node and Python, with the start of
// the client's secret in a comment so the developer knows which secret to put in the environment. Never
// the whole secret: it exists in clear only in the answer that made it.
import { CopyButton } from '../../../components/secret-once.js';

const node = (prefix: string) => `// npm install standardwebhooks
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

// The signing secret: ${prefix}… (the whole secret, as shown once when it was made)
const webhook = new Webhook(process.env.WALKAROUND_WEBHOOK_SECRET);

http
  .createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks).toString('utf8'); // the raw body, exactly as received
    let event;
    try {
      // Checks the signature and that webhook-timestamp is within 5 minutes; throws otherwise.
      event = webhook.verify(body, req.headers);
    } catch {
      return res.writeHead(400).end();
    }
    // Skip a webhook-id you have seen (deliveries are at least once), then answer quickly.
    console.log(req.headers['webhook-id'], event.type);
    res.writeHead(204).end();
  })
  .listen(8080);
`;

const python = (prefix: string) => `# pip install standardwebhooks flask
import os
from flask import Flask, request
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

# The signing secret: ${prefix}… (the whole secret, as shown once when it was made)
webhook = Webhook(os.environ["WALKAROUND_WEBHOOK_SECRET"])
app = Flask(__name__)

@app.post("/hooks")
def hooks():
    try:
        # The raw body, exactly as received; checks the signature and the timestamp (5 minutes).
        event = webhook.verify(request.get_data(), dict(request.headers))
    except WebhookVerificationError:
        return "", 400
    # Skip a webhook-id you have seen (deliveries are at least once), then answer quickly.
    print(request.headers["webhook-id"], event["type"])
    return "", 204
`;

export function VerifySnippets({ prefix }: { prefix: string }) {
  const samples = [
    ['node', 'Node.js', node(prefix)],
    ['python', 'Python', python(prefix)],
  ] as const;
  return (
    <section class="panel" aria-labelledby="verify-title">
      <h2 id="verify-title">Verify the signature</h2>
      <p class="muted">
        Every delivery carries <code>webhook-id</code>, <code>webhook-timestamp</code> and{' '}
        <code>webhook-signature</code> (Standard Webhooks). Put the whole secret in{' '}
        <code>WALKAROUND_WEBHOOK_SECRET</code> on the receiving side; any Standard Webhooks library verifies
        it.
      </p>
      {samples.map(([id, language, code]) => (
        <details key={id} class="snippet" open={id === 'node'}>
          <summary>{language}</summary>
          <pre
            class="json"
            id={`snippet-${id}`}
            tabIndex={0}
            role="region"
            aria-label={`${language} example`}
          >
            {code}
          </pre>
          <CopyButton text={code} what={`the ${language} example`} />
        </details>
      ))}
    </section>
  );
}
