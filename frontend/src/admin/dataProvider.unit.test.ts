import { describe, expect, it } from 'vitest';
import type { fetchUtils } from 'react-admin';
import { ADOPTION_HISTORY, createDataProvider } from './dataProvider';

const ID = '0b9d6f7e-3c1a-4f51-9a8e-2d7c5b4a3f21';

/** An HTTP client that answers `json` to every call and keeps each call's method and address. */
function recordingClient(json: unknown = {}) {
  const calls: string[] = [];
  const http = (url: string, options: fetchUtils.Options = {}) => {
    calls.push(`${(options.method ?? 'GET').toUpperCase()} ${url}`);
    return Promise.resolve({ status: 200, headers: new Headers(), body: JSON.stringify(json), json });
  };
  return { calls, provider: createDataProvider(http) };
}

describe("the dashboard's data provider", () => {
  it.each([
    ['users', `/api/admin/user/${ID}`],
    ['adoptions', `/api/admin/adoptions/${ID}`],
    ['adoption-requests', `/api/admin/adoption-requests/${ID}`],
    ['posts', `/api/admin/posts/${ID}`],
    ['comments', `/api/admin/comments/${ID}`],
  ])(
    'deletes one of %s at its command route %s, reads it back, and answers the deleted record',
    async (resource, route) => {
      const { calls, provider } = recordingClient({ message: 'Deleted', position: '42' });
      const previousData = { id: ID, name: 'Bruno' };
      const { data } = await provider.delete(resource, { id: ID, previousData });
      // The read back carries the deletion's position: it answers once the read side has the deletion.
      expect(calls).toEqual([`DELETE ${route}`, `GET /api/admin/${resource}/${ID}`]);
      expect(data).toEqual(previousData);
    },
  );

  it('deletes several through the same command routes', async () => {
    const { calls, provider } = recordingClient();
    await provider.deleteMany('users', { ids: ['a', 'b'] });
    expect(calls).toEqual([
      'DELETE /api/admin/user/a',
      'GET /api/admin/users/a',
      'DELETE /api/admin/user/b',
      'GET /api/admin/users/b',
    ]);
  });

  it('refuses to delete what has no deletion, without sending anything', async () => {
    const { calls, provider } = recordingClient();
    await expect(provider.delete('streams', { id: ID })).rejects.toThrow('No deletion of streams');
    expect(calls).toEqual([]);
  });

  it("reads an ad's history from its audit route as a record with the ad's id, the ad itself from its row", async () => {
    const answer = { adId: ID, ad: { name: 'Bruno', status: 'adopted' }, timeline: [] };
    const { calls, provider } = recordingClient(answer);
    const { data } = await provider.getOne(ADOPTION_HISTORY, { id: ID });
    expect(data).toEqual({ ...answer, id: ID });
    await provider.getOne('adoptions', { id: ID });
    expect(calls).toEqual([`GET /api/admin/adoptions/${ID}/history`, `GET /api/admin/adoptions/${ID}`]);
  });
});
