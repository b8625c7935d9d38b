import { test, expect } from '../fixtures.js';

test('the index page and the API answer on both origins', async ({ page, origins }) => {
  for (const origin of [origins.self, origins.other]) {
    await page.goto(`${origin}/`);
    await expect(page.locator('h1')).toBeVisible();
    const status = await page.evaluate(async () => (await fetch('/api/posts')).status);
    expect(status).toBe(200);
  }
});
