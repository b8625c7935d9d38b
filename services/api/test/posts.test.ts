import { describe, expect, it } from 'vitest';
import { apiForFile } from './start-api.js';
import { rawExchange } from '@origin-lab/test-kit';

const api = apiForFile({ postsMax: 5 });

function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const item of [value].flat()) data.append(name, item);
  return data;
}

async function create(body: FormData | URLSearchParams | string, headers: Record<string, string> = {}) {
  const res = await fetch(`${api.url}/api/posts`, { method: 'POST', body, headers });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe('POST /api/posts', () => {
  it('201 with the stored post; other fields are ignored', async () => {
    const { status, body } = await create(
      form({ title: '  Hello  ', author: 'Ada', tags: 'a,b', role: 'admin', id: '999' }),
    );
    expect(status).toBe(201);
    expect(body.post).toMatchObject({ title: 'Hello', author: 'Ada', tags: 'a,b' });
    expect(body.post).not.toHaveProperty('role');
    expect(body.post.id).not.toBe('999');
  });

  it('joins several tags fields with commas (docs/decisions.md)', async () => {
    const { status, body } = await create(form({ title: 'Tagged', author: 'Ada', tags: ['cors', 'fetch', 'sse'] }));
    expect(status).toBe(201);
    expect(body.post).toMatchObject({ tags: 'cors,fetch,sse' });
  });

  it('reads urlencoded forms too', async () => {
    const { status, body } = await create(new URLSearchParams({ title: 'Encoded é', author: 'Bob' }));
    expect(status).toBe(201);
    expect(body.post).toMatchObject({ title: 'Encoded é', author: 'Bob', tags: '' });
  });

  it('accepts any Unicode and counts characters, not bytes', async () => {
    const title = '👩🏽‍💻'.repeat(200); // 200 characters, 2800 bytes
    const { status, body } = await create(form({ title, author: 'Zoë' }));
    expect(status).toBe(201);
    expect(body.post.title).toBe(title);
    const tooLong = await create(form({ title: 'é'.repeat(201), author: 'Zoë' }));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ field: 'title', detail: expect.stringContaining('201 characters') });
  });

  it.each([
    [{ author: 'Ada' }, 'title'],
    [{ title: '   ', author: 'Ada' }, 'title'],
    [{ title: 'ok' }, 'author'],
    [{ title: 'ok', author: 'x'.repeat(81) }, 'author'],
    [{ title: ['one', 'two'], author: 'Ada' }, 'title'],
  ])('rejects %j with 400 naming %s', async (fields, field) => {
    const { status, body } = await create(form(fields as Record<string, string>));
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: expect.any(String), field, detail: expect.any(String) });
  });

  it('keeps file metadata and ignores an empty file input (size 0)', async () => {
    const data = form({ title: 'With files', author: 'Ada' });
    data.append('attachment', new File(['hello'], 'hello.txt', { type: 'text/plain' }));
    data.append('empty', new File([], '', { type: 'application/octet-stream' }));
    const { status, body } = await create(data);
    expect(status).toBe(201);
    expect(body.post.attachments).toEqual([{ field: 'attachment', name: 'hello.txt', type: 'text/plain', size: 5 }]);
  });

  it.each([
    ['application/json', '{"title":"t","author":"a"}'],
    ['text/plain', 'title=t'],
  ])('refuses %s with 415 and says what it reads', async (type, body) => {
    const res = await create(body, { 'Content-Type': type });
    expect(res.status).toBe(415);
    expect(res.body.detail).toMatch(/multipart\/form-data/);
  });

  it('a truncated multipart body answers 500 with the parser complaint, and the server goes on', async () => {
    const truncated = '--zz\r\nContent-Disposition: form-data; name="ti';
    const res = await rawExchange(
      api.port,
      'POST /api/posts HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: multipart/form-data; boundary=zz\r\n' +
        `Content-Length: ${Buffer.byteLength(truncated)}\r\n\r\n${truncated}`,
      { halfClose: true },
    );
    expect(res.status).toBe(500);
    expect(JSON.parse(res.text)).toMatchObject({ error: expect.any(String), detail: expect.any(String) });
    expect((await fetch(`${api.url}/api/posts`)).status).toBe(200);
  });

  it('keeps at most postsMax posts, dropping the oldest', async () => {
    for (let i = 0; i < 7; i++) await create(form({ title: `bulk ${i}`, author: 'loop' }));
    const list = (await (await fetch(`${api.url}/api/posts`)).json()) as { posts: { title: string }[] };
    expect(list.posts).toHaveLength(5);
    expect(list.posts.at(-1)?.title).toBe('bulk 6');
    expect(list.posts.map((post) => post.title)).not.toContain('bulk 0');
  });
});
