/* ----------------------------------------------------------------------
   GRANULAR-EXACT: per-contact history of pair granular/exact (see header)
------------------------------------------------------------------------- */

#include "fix_neigh_history_exact.h"

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "my_page.h"
#include "neighbor.h"
#include "recorded_atom_id.h"
#include "update.h"

#include <cstring>

using namespace LAMMPS_NS;

namespace {
constexpr int STORE_NEIGH = 0;    // (StoreRestartData::store)
constexpr int MAX_WIDTH = 64;     // no law keeps more values per contact
}    // namespace

FixNeighHistoryExact::FixNeighHistoryExact(LAMMPS *lmp, int narg, char **arg) :
    FixNeighHistory(lmp, narg, arg)
{
  if (dnum < 1 || dnum > MAX_WIDTH)
    error->all(FLERR, "Fix {}: the values per contact ({}) must be 1 to {}", style, dnum,
               MAX_WIDTH);
}

// LAMMPS' fix NEIGH_HISTORY follows its pair style's pointer, which only the pair style sets
void FixNeighHistoryExact::init()
{
  if (pair == nullptr)
    error->all(FLERR, "Fix {} is internal to pair granular/exact: do not define it", style);
  FixNeighHistory::init();
}

// around a neighbour build: the work of the contacts it drops, and the law changes of the
// contacts it keeps (ContactHistoryClient)
void FixNeighHistoryExact::pre_exchange()
{
  if (client) client->work_before_build();
  FixNeighHistory::pre_exchange();
}

void FixNeighHistoryExact::post_neighbor()
{
  FixNeighHistory::post_neighbor();
  if (client) {
    client->contacts_matched();
    client->work_after_build();
  }
}

// LAMMPS' store refreshes the partner arrays at the end of a run; the pair style is then told
void FixNeighHistoryExact::post_run()
{
  FixNeighHistory::post_run();
  if (client) client->run_ended();
}

// an atom just created: no partners (LAMMPS' store), its ID recorded (recorded_atom_id.h)
void FixNeighHistoryExact::set_arrays(int i)
{
  FixNeighHistory::set_arrays(i);
  record_created_atom_id(atom, i);
}

bigint FixNeighHistoryExact::entries_held() const
{
  bigint n = 0;
  for (int i = 0; i < atom->nlocal; i++) n += npartner[i];
  return n;
}

void FixNeighHistoryExact::write_restart(FILE *fp)
{
  // during a run (restart command) the neighbour list matches the atoms: copy the current
  // per-neighbour values; between runs post_run() has done it already
  if (update->whichflag != 0) pre_exchange();

  EndedWork::write(fp, world, comm->me, client, STORE_NEIGH, dnum);
}

void FixNeighHistoryExact::restart(char *buf)
{
  ended_work.read(buf, comm->me);
}

/* ----------------------------------------------------------------------
   A restart record in LAMMPS' layout: [length, number of partners, then per partner its ID and
   its values]. The values per contact follow from the length (and must be those the file's
   store data give, where it has them). Kept aside, checked, until the pair style takes it.
------------------------------------------------------------------------- */

void FixNeighHistoryExact::unpack_restart(int nlocal, int nth)
{
  const tagint tag = atom->tag[nlocal];
  bigint begin, length;
  locate_restart_record(error, style, tag, atom->extra[nlocal], atom->nextra_store, nth, begin,
                        length);
  RestartRecord rec(error, style, tag, atom->extra[nlocal] + begin, length);
  rec.count("record length", length, length);
  const bigint n = rec.count("number of partners", 0, (length - 2) / 2);
  if (nlocal == 0 || !have_file_contacts) {
    from_file.clear(ended_work.file.width > 0 ? ended_work.file.width : 0);
    have_file_contacts = true;
  }
  while (from_file.atoms() < nlocal) from_file.end_atom();    // (atoms without a record)
  if (n > 0) {
    const bigint per_partner = (length - 2) / n;
    if ((length - 2) % n != 0 || per_partner < 2 || per_partner - 1 > MAX_WIDTH)
      rec.damaged("number of partners", double(n),
                  fmt::format("a count that divides the {} values after it into partners of 2 "
                              "to {} values",
                              length - 2, MAX_WIDTH + 1));
    const int width = static_cast<int>(per_partner - 1);
    if (from_file.width == 0) from_file.width = width;
    if (width != from_file.width)
      rec.damaged("values per contact", double(width),
                  fmt::format("{}, as the file's other records", from_file.width));
  }
  std::vector<tagint> ids;
  for (bigint k = 0; k < n; k++) {
    const tagint id = rec.partner_id("partner ID");
    ids.push_back(id);
    from_file.add_contact(id, rec.values("contact values", from_file.width), 0, nullptr);
  }
  rec.check_distinct(ids);
  from_file.end_atom();
}

bool FixNeighHistoryExact::take_restart_contacts(HeldContacts &out)
{
  if (!have_file_contacts) return false;
  from_file.move_to(out, atom->nlocal);
  have_file_contacts = false;
  return true;
}

/* ----------------------------------------------------------------------
   contacts handed over between stores (between runs)
------------------------------------------------------------------------- */

void FixNeighHistoryExact::export_contacts(HeldContacts &out) const
{
  out.clear(dnum);
  for (int i = 0; i < atom->nlocal; i++) {
    for (int n = 0; n < npartner[i]; n++)
      out.add_contact(partner[i][n], &valuepartner[i][dnum * n], 0, nullptr);
    out.end_atom();
  }
}

void FixNeighHistoryExact::adopt_contacts(const HeldContacts &in)
{
  if (in.width > dnum)
    error->all(FLERR, "Fix {}: contacts of {} values cannot go into a store of {}", style,
               in.width, dnum);
  allocate_pages();
  const int nlocal = atom->nlocal;
  for (int i = 0; i < nlocal; i++) {
    const int n = i < in.atoms() ? in.contacts_of(i) : 0;
    if (n > neighbor->oneatom)
      error->one(FLERR,
                 "Pair granular/exact: atom {} has {} contacts with a history, more than a "
                 "neighbour list holds per atom ({}): raise it with 'neigh_modify one {}'",
                 atom->tag[i], n, neighbor->oneatom, n);
    npartner[i] = n;
    maxpartner = MAX(maxpartner, n);
    partner[i] = ipage_atom->get(n);
    valuepartner[i] = dpage_atom->get(dnum * n);
    for (int k = 0; k < n; k++) {
      const bigint c = in.first[i] + k;
      partner[i][k] = in.partner[c];
      double *values = &valuepartner[i][dnum * k];
      for (int v = 0; v < in.width; v++) values[v] = in.fixed_of(c)[v];
      for (int v = in.width; v < dnum; v++) values[v] = 0.0;
    }
  }
}
