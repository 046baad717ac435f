// A stand-in for the Workers AI binding, bound to the worker under test as the RPC service `AI`:
// `run(model, inputs)` has the binding's contract and resolves to the SSE byte stream, which comes
// from the local LLM mock (it records the request and speaks Workers AI's streaming format).
import { WorkerEntrypoint } from 'cloudflare:workers';

export class MockAi extends WorkerEntrypoint {
  async run(model, inputs) {
    const res = await fetch(`${this.env.LLM_MOCK_URL}/workers-ai/run/${model}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(inputs),
    });
    if (!res.ok) throw new Error(`AiError: upstream answered ${res.status}`);
    return res.body;
  }
}

export default {
  fetch() {
    return new Response('mock Workers AI: bind MockAi as a service', { status: 404 });
  },
};
