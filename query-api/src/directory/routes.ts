import { Router } from 'express';
import type { Pool } from 'pg';
import {
  directorySearchQuery,
  type ClinicDto,
  type FaqDto,
  type LandingStatsDto,
  type NgoDto,
  type TeamMemberDto,
} from '@pawhaven/contracts';
import type * as ReadModels from '@pawhaven/projections';
import type { QueryDeps } from '../deps';

/** A LIKE pattern that finds `term` as a plain substring: its `\`, `%` and `_` are literal. */
const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The columns each page selects, typed as the directory projection declares its tables. */
type NgoRow = Pick<
  ReadModels.NgoRow,
  'id' | 'name' | 'description' | 'phone' | 'email' | 'image' | 'mission' | 'services'
>;
type ClinicRow = Pick<
  ReadModels.ClinicRow,
  'id' | 'name' | 'location' | 'image' | 'veterinarians' | 'services_offered' | 'phone' | 'email'
>;
type FaqRow = Pick<ReadModels.FaqRow, 'id' | 'question' | 'answer'>;
type TeamRow = Pick<
  ReadModels.TeamMemberRow,
  'id' | 'name' | 'role' | 'image' | 'summary' | 'details' | 'contact'
>;
type StatsRow = ReadModels.LandingStatsTotals<string>;

const ngoDto = (r: NgoRow): NgoDto => ({
  _id: r.id,
  id: r.id,
  name: r.name,
  description: r.description,
  contact: { phone: r.phone, email: r.email },
  image: r.image,
  mission: r.mission,
  services: r.services,
});

const clinicDto = (r: ClinicRow): ClinicDto => ({
  _id: r.id,
  id: r.id,
  name: r.name,
  location: r.location,
  image: r.image,
  veterinarians: r.veterinarians,
  services_offered: r.services_offered,
  contact: r.email ? { phone: r.phone, email: r.email } : { phone: r.phone },
});

const faqDto = (r: FaqRow): FaqDto => ({ _id: r.id, id: r.id, question: r.question, answer: r.answer });

const teamDto = (r: TeamRow): TeamMemberDto => ({
  _id: r.id,
  id: r.id,
  name: r.name,
  role: r.role,
  image: r.image,
  summary: r.summary,
  details: r.details,
  contact: r.contact,
});

/** The search term of `?q=`, trimmed; '' lists everything. */
const termOf = (query: unknown) => directorySearchQuery.parse(query).q ?? '';

async function listNgos(pool: Pool, term: string): Promise<NgoDto[]> {
  const { rows } = await pool.query<NgoRow>({
    name: 'directory-ngos',
    text: `SELECT id, name, description, phone, email, image, mission, services FROM ngos
           WHERE $1 = '' OR name ILIKE $2 ESCAPE '\\' OR description ILIKE $2 ESCAPE '\\'
           ORDER BY sort_order, name, id`,
    values: [term, containsPattern(term)],
  });
  return rows.map(ngoDto);
}

async function listClinics(pool: Pool, term: string): Promise<ClinicDto[]> {
  const { rows } = await pool.query<ClinicRow>({
    name: 'directory-clinics',
    text: `SELECT id, name, location, image, veterinarians, services_offered, phone, email FROM clinics
           WHERE $1 = '' OR name ILIKE $2 ESCAPE '\\' OR location ILIKE $2 ESCAPE '\\'
           ORDER BY sort_order, name, id`,
    values: [term, containsPattern(term)],
  });
  return rows.map(clinicDto);
}

async function listFaqs(pool: Pool): Promise<FaqDto[]> {
  const { rows } = await pool.query<FaqRow>({
    name: 'directory-faq',
    text: 'SELECT id, question, answer FROM faq_items ORDER BY sort_order, id',
  });
  return rows.map(faqDto);
}

async function listTeam(pool: Pool): Promise<TeamMemberDto[]> {
  const { rows } = await pool.query<TeamRow>({
    name: 'directory-team',
    text: 'SELECT id, name, role, image, summary, details, contact FROM team_members ORDER BY sort_order, name, id',
  });
  return rows.map(teamDto);
}

async function landingStats(pool: Pool): Promise<LandingStatsDto> {
  const { rows } = await pool.query<StatsRow>({
    name: 'landing-stats',
    text: 'SELECT ads_published, pets_adopted, registered_vets, community_members FROM landing_stats',
  });
  const r = rows[0];
  return {
    adsPublished: Number(r?.ads_published ?? 0),
    petsAdopted: Number(r?.pets_adopted ?? 0),
    registeredVets: Number(r?.registered_vets ?? 0),
    communityMembers: Number(r?.community_members ?? 0),
  };
}

/**
 * The public pages' reads, mounted at /api, open to visitors: the FAQ (at the historical /faqRoutes and at /faq), the
 * NGO and clinic directories with their server-side search, the team, and the landing page's live figures. Lists are
 * plain JSON arrays, in the order of their seed files.
 */
export function publicPagesQueries({ db }: QueryDeps): Router {
  const router = Router();

  router.get('/faqRoutes', async (_req, res) => {
    res.json(await listFaqs(db.pool));
  });
  router.get('/faq', async (_req, res) => {
    res.json(await listFaqs(db.pool));
  });

  /** `?q=`: case-insensitive substring of the name or the description; empty lists every NGO. */
  router.get('/ngos', async (req, res) => {
    res.json(await listNgos(db.pool, termOf(req.query)));
  });

  /** `?q=`: case-insensitive substring of the name or the location; empty lists every clinic. */
  router.get('/clinics', async (req, res) => {
    res.json(await listClinics(db.pool, termOf(req.query)));
  });

  router.get('/team', async (_req, res) => {
    res.json(await listTeam(db.pool));
  });

  router.get('/stats/landing', async (_req, res) => {
    res.json(await landingStats(db.pool));
  });

  return router;
}
