import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import { z } from 'zod';
import {
  clinicInput,
  clinicStream,
  faqInput,
  faqStream,
  ngoInput,
  ngoStream,
  teamMemberInput,
  teamMemberStream,
  type DirectoryEvent,
} from '@pawhaven/contracts';
import { ConcurrencyError, logger, nameUuid, type EventStore, type NewEvent } from '@pawhaven/platform';

/** Where the seed files are: `data/seed` at the root of the repository. */
export const SEED_DIR = path.resolve(import.meta.dirname, '../../../data/seed');

/** An entry's key in its file: its stable identity (the entity id and stream are derived from it). */
const KEY = /^[a-z0-9][a-z0-9-]{0,99}$/;

const seedFile = <T extends z.ZodObject>(entry: T) =>
  z.strictObject({
    note: z.string().optional(),
    entries: z.array(
      entry.extend({
        key: z.string().regex(KEY, 'A key is lower-case letters, digits and hyphens (at most 100)'),
      }),
    ),
  });

type Kind = 'ngos' | 'clinics' | 'faq' | 'team';

/** What each seed file holds and the event each of its entries becomes. */
const KINDS = {
  ngos: {
    file: 'ngos.json',
    schema: seedFile(ngoInput),
    stream: ngoStream,
    event: (e: z.infer<typeof ngoInput>, id: string, order: number, at: string): DirectoryEvent => ({
      type: 'NgoListed',
      data: {
        ngoId: id,
        name: e.name,
        description: e.description,
        contact: { phone: e.contact.phone, email: e.contact.email },
        image: e.image,
        mission: e.mission,
        services: e.services,
        order,
        listedAt: at,
      },
    }),
  },
  clinics: {
    file: 'clinics.json',
    schema: seedFile(clinicInput),
    stream: clinicStream,
    event: (e: z.infer<typeof clinicInput>, id: string, order: number, at: string): DirectoryEvent => ({
      type: 'ClinicListed',
      data: {
        clinicId: id,
        name: e.name,
        location: e.location,
        image: e.image,
        veterinarians: e.veterinarians,
        servicesOffered: e.services_offered,
        contact: { phone: e.contact.phone, email: e.contact.email ?? null },
        order,
        listedAt: at,
      },
    }),
  },
  faq: {
    file: 'faq.json',
    schema: seedFile(faqInput),
    stream: faqStream,
    event: (e: z.infer<typeof faqInput>, id: string, order: number, at: string): DirectoryEvent => ({
      type: 'FaqPublished',
      data: { faqId: id, question: e.question, answer: e.answer, order, publishedAt: at },
    }),
  },
  team: {
    file: 'team.json',
    schema: seedFile(teamMemberInput),
    stream: teamMemberStream,
    event: (e: z.infer<typeof teamMemberInput>, id: string, order: number, at: string): DirectoryEvent => ({
      type: 'TeamMemberAdded',
      data: {
        memberId: id,
        name: e.name,
        role: e.role,
        image: e.image,
        summary: e.summary,
        details: e.details,
        contact: e.contact,
        order,
        addedAt: at,
      },
    }),
  },
} as const;

/** A UUID-shaped id (version 5 layout) from the SHA-1 of `name`: the same seed entry always gets the same id. */
export function seedId(name: string): string {
  return nameUuid(`pawhaven-seed\n${name}`);
}

/** The id of the entry `key` of a kind's seed file (e.g. `seedEntityId('ngos', 'canal-paws-lahore')`). */
export const seedEntityId = (kind: Kind, key: string) => seedId(`${kind}:${key}`);

type PlannedEntry = { stream: string; event: NewEvent };

/** Reads and checks one seed file; a missing file seeds nothing of its kind, a broken one stops the start. */
async function planKind(dir: string, kind: Kind, at: string): Promise<PlannedEntry[]> {
  const spec = KINDS[kind];
  const file = path.join(dir, spec.file);
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      logger.warn({ file }, `no seed file for ${kind}: nothing of it is added`);
      return [];
    }
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new Error(`The seed file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = spec.schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(
      `The seed file ${file} is not valid at ${issue.path.join('.') || '(top)'}: ${issue.message}`,
    );
  }
  const seen = new Set<string>();
  const entries = parsed.data.entries as ({ key: string } & Record<string, unknown>)[];
  return entries.map((entry, order) => {
    if (seen.has(entry.key)) throw new Error(`The seed file ${file} has the key "${entry.key}" twice`);
    seen.add(entry.key);
    const id = seedEntityId(kind, entry.key);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kind's entry matches its own event maker
    const event = (spec.event as (e: any, id: string, order: number, at: string) => DirectoryEvent)(
      entry,
      id,
      order,
      at,
    );
    return {
      stream: spec.stream(id),
      event: {
        // A fixed event id: an append retried after its answer was lost is recognised, not repeated.
        eventId: seedId(`${kind}:${entry.key}:event`),
        type: event.type,
        data: event.data,
        metadata: { actorId: 'system', source: `data/seed/${spec.file}`, seedKey: entry.key },
      },
    };
  });
}

/** Every picture the seed files name (NGOs, clinics, team members): a path on this site or an https address. */
export async function seedFileImages(dir = SEED_DIR): Promise<string[]> {
  const at = new Date(0).toISOString();
  const planned = await Promise.all((Object.keys(KINDS) as Kind[]).map((kind) => planKind(dir, kind, at)));
  return planned
    .flat()
    .map(({ event }) => (event.data as { image?: unknown }).image)
    .filter((image): image is string => typeof image === 'string');
}

const exists = async (store: EventStore, stream: string) => {
  for await (const _ of store.readStream(stream, { maxCount: 1 })) return true;
  return false;
};

export type SeedResult = { appended: number; present: number };

/**
 * Appends the directory, FAQ and team seed files (`data/seed/{ngos,clinics,faq,team}.json`) as events, each entry
 * once, on every start. Each entry has a stream of its own, appended only when it does not exist yet (expected
 * revision 'no_stream'): a restart adds nothing, two processes starting at once add each entry once (the second
 * append is refused, or recognised by its fixed event id), and an entry added to a file later is added on the next
 * start. Entries already in the log are never changed from the file: from then on the log is the source of truth
 * (an admin edits them with events of their own).
 *
 * The log is read through the event store port only, so the seed works on every adapter; `knex` is unused.
 */
export async function seedPublicContent(
  store: EventStore,
  _knex: Knex,
  opts: { dir?: string; now?: Date } = {},
): Promise<SeedResult> {
  const dir = opts.dir ?? SEED_DIR;
  const at = (opts.now ?? new Date()).toISOString();
  const planned: PlannedEntry[] = [];
  for (const kind of Object.keys(KINDS) as Kind[]) planned.push(...(await planKind(dir, kind, at)));

  let appended = 0;
  let present = 0;
  // A few at a time: the pool is shared with the rest of the start.
  for (let i = 0; i < planned.length; i += 8) {
    await Promise.all(
      planned.slice(i, i + 8).map(async ({ stream, event }) => {
        if (await exists(store, stream)) {
          present++;
          return;
        }
        try {
          await store.append(stream, [event], 'no_stream');
          appended++;
        } catch (error) {
          // Another process seeded this entry a moment ago.
          if (!(error instanceof ConcurrencyError)) throw error;
          present++;
        }
      }),
    );
  }
  if (appended > 0) logger.info({ appended, present }, 'public content seeded from data/seed');
  return { appended, present };
}
