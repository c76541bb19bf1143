/* ----------------------------------------------------------------------
   GRANULAR-EXACT: compact, variable-length per-contact history (see header)
------------------------------------------------------------------------- */

#include "fix_contact_history_exact.h"

#include "contact_law_words.h"

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "force.h"
#include "memory.h"
#include "modify.h"
#include "neigh_list.h"
#include "pair.h"
#include "recorded_atom_id.h"
#include "update.h"

#include <algorithm>
#include <cstring>
#include <utility>

using namespace LAMMPS_NS;
using namespace FixConst;

static_assert(ContactLawWords::JAEGER_CAPACITY_MAX + 1 <= FixContactHistoryExact::MAX_ROOM,
              "a record holds the M + 1 vertices of the largest Jaeger capacity");

namespace {
enum { COMM_COUNTS, COMM_ENTRIES };
constexpr int STORE_COMPACT = 1;    // (StoreRestartData::store)
constexpr int EXTRA_ROOM = 2;    // items of headroom when a record is rebuilt from a blob

// grow a raw double array to hold at least `need` values, keeping its contents
void grow_doubles(Memory *memory, double *&array, bigint &size, bigint need, const char *name)
{
  if (need <= size) return;
  bigint grown = size > 0 ? size : 1024;
  while (grown < need) grown *= 2;
  array = (double *) memory->srealloc(array, grown * sizeof(double), name);
  size = grown;
}
}    // namespace

/* ---------------------------------------------------------------------- */

FixContactHistoryExact::FixContactHistoryExact(LAMMPS *lmp, int narg, char **arg) :
    Fix(lmp, narg, arg)
{
  if (narg != 5)
    error->all(FLERR, "Illegal fix CONTACT_HISTORY/EXACT command: expected <nfixed> <nitem>");
  nfixed = utils::inumeric(FLERR, arg[3], false, lmp);
  nitem = utils::inumeric(FLERR, arg[4], false, lmp);
  if (nfixed < 0 || nitem < 1)
    error->all(FLERR, "Illegal fix CONTACT_HISTORY/EXACT sizes {} {}", nfixed, nitem);

  restart_peratom = 1;
  restart_global = 1;
  create_attribute = 1;
  maxexchange_dynamic = 1;
  // f_ID[1..4]: contacts, mean and max history items per contact, bytes per contact
  vector_flag = 1;
  size_vector = 4;
  global_freq = 1;
  extvector = 0;

  newton_pair = force->newton_pair;
  if (newton_pair) comm_reverse = 1;    // blob length of a ghost

  FixContactHistoryExact::grow_arrays(atom->nmax);
  atom->add_callback(Atom::GROW);
  atom->add_callback(Atom::RESTART);
  // (not set_arrays(): the existing atoms keep the IDs recorded for them, recorded_atom_id.h)
  for (int i = 0; i < atom->nlocal; i++) clear_partners(i);

  nlocal_neigh = nall_neigh = 0;
  commflag = COMM_COUNTS;
}

FixContactHistoryExact::~FixContactHistoryExact()
{
  if (copymode) return;
  atom->delete_callback(id, Atom::GROW);
  atom->delete_callback(id, Atom::RESTART);
  memory->destroy(npartner);
  memory->sfree(blob_offset);
  memory->sfree(blob_length);
  memory->sfree(blob_records);
  memory->sfree(blob_pool);
  memory->sfree(pool);
  memory->sfree(retired);
  memory->sfree(slots);
  memory->sfree(firstrecord);
}

int FixContactHistoryExact::setmask()
{
  return PRE_EXCHANGE | MIN_PRE_EXCHANGE | POST_NEIGHBOR | MIN_POST_NEIGHBOR | POST_RUN;
}

bigint FixContactHistoryExact::entries_held() const
{
  bigint n = 0;
  for (int i = 0; i < atom->nlocal; i++) n += npartner[i];
  return n;
}

void FixContactHistoryExact::init()
{
  if (pair == nullptr)
    error->all(FLERR, "Fix {} is internal to pair granular/exact: do not define it", style);
  if (atom->tag_enable == 0)
    error->all(FLERR, "Pair granular/exact contact history requires atom IDs");
  // the blobs must be current before any fix migrates atoms in its pre_exchange()
  for (const auto &ifix : modify->get_fix_list()) {
    if (ifix == this) break;
    if (ifix->pre_exchange_migrate)
      error->all(FLERR,
                 "Pair granular/exact must be defined before fix {} {}, which migrates atoms "
                 "in pre_exchange",
                 ifix->id, ifix->style);
  }
}

/* ----------------------------------------------------------------------
   records: creation and growth within the pool of the current list
------------------------------------------------------------------------- */

bigint FixContactHistoryExact::create(int room)
{
  const bigint base = pool_used;
  grow_doubles(memory, pool, pool_size, pool_used + record_doubles(room),
               "contact_history:pool");
  pool_used += record_doubles(room);
  double *rec = pool + base;
  rec[0] = header(0, room);    // (no items yet: the header comes first)
  for (int k = 0; k < nfixed; k++) rec[1 + k] = 0.0;
  return base;
}

void FixContactHistoryExact::grow_record(bigint &slot, int items, int max_room)
{
  // (a history this long, 2 GiB for one contact, is not physics any more: say so, never wrap)
  if (items > MAX_ROOM)
    error->one(FLERR,
               "Fix {}: a contact's history would hold {} items, more than the {} a record can",
               id, items, MAX_ROOM);
  const int room_now = room(slot);
  // grow by a quarter (amortised O(1) moves, at most ~25 % unused room), never past max_room
  bigint grown = room_now + room_now / 4 + 4;
  if (grown < items) grown = items;
  if (grown > max_room) grown = max_room > items ? max_room : items;
  if (grown > MAX_ROOM) grown = MAX_ROOM;
  const bigint first_old = first_item(slot);
  const bigint moved = create(static_cast<int>(grown));    // may move the pool: offsets only
  // items, header and fixed part are contiguous: one copy, then the header gets the new room
  const bigint n = (bigint) nitem * count(slot) + 1 + nfixed;
  memcpy(pool + moved, pool + first_old, n * sizeof(double));
  slot = moved + (slot - first_old);
  pool[slot] = header(count(slot), static_cast<int>(grown));
}

/* ----------------------------------------------------------------------
   partner blobs
------------------------------------------------------------------------- */

bigint FixContactHistoryExact::allocate_blob(bigint length)
{
  const bigint offset = blob_used;
  grow_doubles(memory, blob_pool, blob_size, blob_used + length, "contact_history:blobs");
  blob_used += length;
  return offset;
}

// the entry [partner tag, count, fixed..., items...] of the record in `slot` of the pool, at dst;
// returns its length
int FixContactHistoryExact::write_entry(double *dst, double partner_tag, bigint slot) const
{
  const int n = count(slot);
  dst[0] = partner_tag;
  dst[1] = n;
  memcpy(dst + 2, state(slot), nfixed * sizeof(double));
  memcpy(dst + 2 + nfixed, items(slot), (bigint) nitem * n * sizeof(double));
  return entry_doubles(n);
}

// append the record in `slot` to the blob of `atom` (its room was reserved)
void FixContactHistoryExact::append_entry(int atom_index, tagint partner_tag, bigint slot)
{
  double *dst = blob_pool + blob_offset[atom_index] + blob_length[atom_index];
  blob_length[atom_index] += write_entry(dst, ubuf(partner_tag).d, slot);
  npartner[atom_index]++;
}

// append a reference [partner tag, -1 - slot] to the record in the pool (room reserved)
void FixContactHistoryExact::append_reference(int atom_index, tagint partner_tag, bigint slot)
{
  double *dst = blob_pool + blob_offset[atom_index] + blob_length[atom_index];
  dst[0] = ubuf(partner_tag).d;
  dst[1] = static_cast<double>(-1 - slot);
  blob_length[atom_index] += REFERENCE_DOUBLES;
  npartner[atom_index]++;
}

// the blob of `atom` with every reference written as the record it refers to (migration and
// restart files carry records only); returns the doubles written
int FixContactHistoryExact::write_records(int atom_index, double *buf) const
{
  const double *entry = blob_pool + blob_offset[atom_index];
  bigint m = 0;
  for (int e = 0; e < npartner[atom_index]; e++) {
    const int length = entry_length(entry);
    if (is_reference(entry)) {
      m += write_entry(buf + m, entry[0], referenced_slot(entry));
    } else {
      memcpy(buf + m, entry, length * sizeof(double));
      m += length;
    }
    entry += length;
  }
  return static_cast<int>(m);
}

// Every record goes to the blobs of both atoms of its pair, as a reference for an atom owned here
// (the record stays in the pool: nothing is copied unless the atom leaves or a restart file is
// written), as itself for a ghost. With newton on a pair is computed on one process only, so a
// ghost partner's share is passed to its owner; with newton off a pair with a ghost partner is
// computed (and its record kept, identically) on both processes, so only owned atoms receive
// entries.
void FixContactHistoryExact::pre_exchange()
{
  if (firstrecord == nullptr || pair == nullptr || pair->list == nullptr) return;
  // (the work of the contacts the next build drops: ContactHistoryClient)
  if (client) client->work_before_build();
  tagint *tag = atom->tag;
  const bool to_ghosts = newton_pair != 0;
  const int receivers = to_ghosts ? nall_neigh : nlocal_neigh;
  const int nclear = MAX(receivers, atom->nlocal + (to_ghosts ? atom->nghost : 0));
  auto receives = [&](int j) { return to_ghosts || j < nlocal_neigh; };
  auto is_ghost = [&](int j) { return j >= nlocal_neigh; };

  // 1. blob lengths (a ghost's total is added to its owner's)
  for (int i = 0; i < nclear; i++) npartner[i] = blob_length[i] = blob_records[i] = 0;
  for_each_record([&](int i, int j, bigint off) {
    const bigint length = entry_doubles(count(off));
    blob_length[i] += REFERENCE_DOUBLES;
    blob_records[i] += length;
    if (receives(j)) {
      blob_length[j] += is_ghost(j) ? length : REFERENCE_DOUBLES;
      blob_records[j] += length;
    }
  });
  if (to_ghosts) {
    commflag = COMM_COUNTS;
    comm->reverse_comm(this);
  }

  // 2. room for each blob; the lengths become fill cursors
  blob_used = 0;
  for (int i = 0; i < receivers; i++) {
    blob_offset[i] = allocate_blob(blob_length[i]);
    blob_length[i] = 0;
    npartner[i] = 0;
  }

  // 3. fill, both sides of every pair; then the ghosts' blobs are appended to their owners'
  for_each_record([&](int i, int j, bigint off) {
    append_reference(i, tag[j], off);
    if (!receives(j)) return;
    if (is_ghost(j)) append_entry(j, tag[i], off);
    else append_reference(j, tag[i], off);
  });
  if (to_ghosts) {
    commflag = COMM_ENTRIES;
    comm->reverse_comm_variable(this);
  }
  blobs_refer_to_pool = true;
  update_maxexchange();
}

void FixContactHistoryExact::min_pre_exchange()
{
  pre_exchange();
}

void FixContactHistoryExact::update_maxexchange()
{
  bigint most = 0;
  for (int i = 0; i < atom->nlocal; i++) most = MAX(most, blob_records[i]);
  if (most + 2 > MAXSMALLINT)
    error->one(FLERR, "Contact history of one atom too large to migrate ({} values)", most);
  maxexchange = static_cast<int>(most) + 2;
}

/* ----------------------------------------------------------------------
   rebuild the record pool for a new neighbour list, from the blobs
------------------------------------------------------------------------- */

void FixContactHistoryExact::post_neighbor()
{
  const int nlocal = atom->nlocal;
  nlocal_neigh = nlocal;
  nall_neigh = nlocal + atom->nghost;

  NeighList *list = pair->list;
  tagint *tag = atom->tag;

  // (allocated on every process, even one that holds no atom yet: pre_exchange() takes part in
  // the collective exchanges only once this exists, and every process must take part)
  if (firstrecord == nullptr || maxatom_list < nlocal) {
    maxatom_list = MAX(atom->nmax, 1);
    firstrecord = (bigint **) memory->srealloc(firstrecord, maxatom_list * sizeof(bigint *),
                                               "contact_history:firstrecord");
  }
  bigint nslots = 0;
  for (int ii = 0; ii < list->inum; ii++) nslots += list->numneigh[list->ilist[ii]];
  if (nslots > slots_size) {
    slots_size = nslots + nslots / 4 + 1;
    slots = (bigint *) memory->srealloc(slots, slots_size * sizeof(bigint),
                                        "contact_history:slots");
  }

  // The references of the blobs are to the records of the pool as pre_exchange() left it: that
  // pool is retired, and the new one is built, compacted, below. (Without a pre_exchange() since
  // the last rebuild, the references are still to the retired pool, untouched since.)
  if (blobs_refer_to_pool) {
    std::swap(pool, retired);
    std::swap(pool_size, retired_size);
    blobs_refer_to_pool = false;
  }
  pool_used = 0;
  bigint cursor = 0;
  for (int ii = 0; ii < list->inum; ii++) {
    const int i = list->ilist[ii];
    int *jlist = list->firstneigh[i];
    const int jnum = list->numneigh[i];
    bigint *slot = firstrecord[i] = slots + cursor;
    cursor += jnum;
    for (int jj = 0; jj < jnum; jj++) {
      int j = jlist[jj];
      // the size/history neighbour build marks pairs that touched: only they can have a record
      const int touched = touched_bit(j) | pair->beyond_contact;
      j &= HISTMASK;
      jlist[jj] = j;
      j &= NEIGHMASK;
      slot[jj] = -1;
      if (!touched || npartner[i] == 0) continue;
      const double *entry = blob_pool + blob_offset[i];
      for (int e = 0; e < npartner[i]; e++) {
        if (static_cast<tagint>(ubuf(entry[0]).i) == tag[j]) {
          slot[jj] = rebuild_record(entry);
          break;
        }
        entry += entry_length(entry);
      }
    }
  }
  if (client) {
    client->contacts_matched();
    client->work_after_build();
  }
}

// the record of a blob entry in the new pool, with EXTRA_ROOM items of headroom: a copy of the
// record in the retired pool that a reference refers to, or of the record in the entry
bigint FixContactHistoryExact::rebuild_record(const double *entry)
{
  const double *fixed, *items_from;
  int n;
  if (is_reference(entry)) {
    const bigint old = referenced_slot(entry);
    n = count_in(retired[old]);
    fixed = state_in(retired, old);
    items_from = retired + first_item_in(retired, old);
  } else {
    n = static_cast<int>(entry[1]);
    fixed = entry + 2;
    items_from = entry + 2 + nfixed;
  }
  const bigint first = create(n + EXTRA_ROOM);
  memcpy(pool + first, items_from, (bigint) nitem * n * sizeof(double));
  return place_header(first, n, n + EXTRA_ROOM, fixed);
}

void FixContactHistoryExact::setup_post_neighbor()
{
  post_neighbor();
}

void FixContactHistoryExact::min_post_neighbor()
{
  post_neighbor();
}

// after a run the blobs must hold the current records (restart files, atom migration)
void FixContactHistoryExact::post_run()
{
  pre_exchange();
  if (client) client->run_ended();
}

// During a run (restart command) the neighbour list matches the atoms: refresh the blobs. Between
// runs post_run() has done it, and write_restart's exchange()/borders() have since re-indexed the
// ghosts the list refers to (see fix_neigh_history_exact.h).
void FixContactHistoryExact::write_restart(FILE *fp)
{
  if (update->whichflag != 0) pre_exchange();
  EndedWork::write(fp, world, comm->me, client, STORE_COMPACT, nfixed);
}

void FixContactHistoryExact::restart(char *buf)
{
  ended_work.read(buf, comm->me);
}

/* ----------------------------------------------------------------------
   communication of ghost blobs (newton on)
------------------------------------------------------------------------- */

int FixContactHistoryExact::pack_reverse_comm_size(int n, int first)
{
  int m = 0;
  for (int i = first; i < first + n; i++) m += 1 + static_cast<int>(blob_length[i]);
  return m;
}

int FixContactHistoryExact::pack_reverse_comm(int n, int first, double *buf)
{
  int m = 0;
  if (commflag == COMM_COUNTS) {
    for (int i = first; i < first + n; i++) buf[m++] = static_cast<double>(blob_length[i]);
  } else {
    for (int i = first; i < first + n; i++) {
      buf[m++] = npartner[i];
      memcpy(buf + m, blob_pool + blob_offset[i], blob_length[i] * sizeof(double));
      m += static_cast<int>(blob_length[i]);
    }
  }
  return m;
}

void FixContactHistoryExact::unpack_reverse_comm(int n, int *list, double *buf)
{
  int m = 0;
  if (commflag == COMM_COUNTS) {
    // (a ghost's blob holds records only: its length is that of its records)
    for (int k = 0; k < n; k++) {
      const bigint length = static_cast<bigint>(buf[m++]);
      blob_length[list[k]] += length;
      blob_records[list[k]] += length;
    }
  } else {
    for (int k = 0; k < n; k++) {
      const int j = list[k];
      const int entries = static_cast<int>(buf[m++]);
      for (int e = 0; e < entries; e++) {
        // an entry is [tag, count, fixed..., items...]: its length follows from its count
        const int length = entry_doubles(static_cast<int>(buf[m + 1]));
        memcpy(blob_pool + blob_offset[j] + blob_length[j], buf + m, length * sizeof(double));
        blob_length[j] += length;
        npartner[j]++;
        m += length;
      }
    }
  }
}

/* ----------------------------------------------------------------------
   per-atom arrays: growth, copies, migration, restart
------------------------------------------------------------------------- */

void FixContactHistoryExact::grow_arrays(int nmax)
{
  memory->grow(npartner, nmax, "contact_history:npartner");
  blob_offset = (bigint *) memory->srealloc(blob_offset, nmax * sizeof(bigint),
                                            "contact_history:blob_offset");
  blob_length = (bigint *) memory->srealloc(blob_length, nmax * sizeof(bigint),
                                            "contact_history:blob_length");
  blob_records = (bigint *) memory->srealloc(blob_records, nmax * sizeof(bigint),
                                             "contact_history:blob_records");
}

// blobs are referenced, not copied: a migrating atom's blob is orphaned until the next rebuild
void FixContactHistoryExact::copy_arrays(int i, int j, int /*delflag*/)
{
  npartner[j] = npartner[i];
  blob_offset[j] = blob_offset[i];
  blob_length[j] = blob_length[i];
  blob_records[j] = blob_records[i];
}

void FixContactHistoryExact::clear_partners(int i)
{
  npartner[i] = 0;
  blob_offset[i] = 0;
  blob_length[i] = 0;
  blob_records[i] = 0;
}

// an atom just created: no partners, its ID recorded
void FixContactHistoryExact::set_arrays(int i)
{
  clear_partners(i);
  record_created_atom_id(atom, i);
}

int FixContactHistoryExact::pack_exchange(int i, double *buf)
{
  buf[0] = npartner[i];
  buf[1] = static_cast<double>(blob_records[i]);
  return 2 + write_records(i, buf + 2);
}

int FixContactHistoryExact::unpack_exchange(int nlocal, double *buf)
{
  npartner[nlocal] = static_cast<int>(buf[0]);
  blob_length[nlocal] = blob_records[nlocal] = static_cast<bigint>(buf[1]);
  blob_offset[nlocal] = allocate_blob(blob_length[nlocal]);
  memcpy(blob_pool + blob_offset[nlocal], buf + 2, blob_length[nlocal] * sizeof(double));
  return 2 + static_cast<int>(blob_length[nlocal]);
}

int FixContactHistoryExact::pack_restart(int i, double *buf)
{
  // buf[0] = number of values including itself, as every restart packer does
  buf[0] = 3 + static_cast<double>(blob_records[i]);
  buf[1] = npartner[i];
  buf[2] = static_cast<double>(blob_records[i]);
  return 3 + write_records(i, buf + 3);
}

// A restart record: [length, number of partners, doubles of its entries, then the entries, each
// [partner ID, count, fixed part, count items]], the fixed part as wide as the file's store
// data say (this store's where the file does not say). Kept aside, checked, until the pair
// style takes it.
void FixContactHistoryExact::unpack_restart(int nlocal, int nth)
{
  read_restart_record(lmp, style, nlocal, nth, nfixed, nitem, ended_work.file.width, from_file,
                      have_file_contacts);
}

// (also the reading of the compact store in the Kokkos execution space, whose data these are)
void FixContactHistoryExact::read_restart_record(LAMMPS *lmp, const char *style, int nlocal,
                                                 int nth, int nfixed, int nitem, int file_width,
                                                 HeldContacts &from_file, bool &have_file_contacts)
{
  Atom *atom = lmp->atom;
  Error *error = lmp->error;
  const tagint tag = atom->tag[nlocal];
  bigint begin, length;
  locate_restart_record(error, style, tag, atom->extra[nlocal], atom->nextra_store, nth, begin,
                        length);
  RestartRecord rec(error, style, tag, atom->extra[nlocal] + begin, length);
  rec.count("record length", length, length);
  const bigint n = rec.count("number of partners", 0, (length - 3) / 2);
  rec.count("length of the entries", length - 3, length - 3);
  if (nlocal == 0 || !have_file_contacts) {
    from_file.clear(file_width > 0 ? file_width : nfixed);
    have_file_contacts = true;
  }
  while (from_file.atoms() < nlocal) from_file.end_atom();    // (atoms without a record)
  std::vector<tagint> ids;
  for (bigint k = 0; k < n; k++) {
    const tagint id = rec.partner_id("partner ID");
    const bigint count = rec.count("count of history items", 0,
                                   std::min<bigint>(MAX_ROOM, (rec.left() - 1) / nitem));
    const double *fixed = rec.values("fixed part of a contact", from_file.width);
    const double *items = rec.values("history items", count * nitem);
    ids.push_back(id);
    from_file.add_contact(id, fixed, count * nitem, items);
  }
  if (rec.left() != 0)
    rec.damaged("number of partners", double(n),
                fmt::format("as many entries as fill the record ({} values are left over)",
                            rec.left()));
  rec.check_distinct(ids);
  from_file.end_atom();
}

bool FixContactHistoryExact::take_restart_contacts(HeldContacts &out)
{
  if (!have_file_contacts) return false;
  from_file.move_to(out, atom->nlocal);
  have_file_contacts = false;
  return true;
}

/* ----------------------------------------------------------------------
   contacts handed over between stores (between runs: the blobs hold every record)
------------------------------------------------------------------------- */

void FixContactHistoryExact::export_contacts(HeldContacts &out) const
{
  out.clear(nfixed);
  std::vector<double> records;
  for (int i = 0; i < atom->nlocal; i++) {
    records.resize(blob_records[i]);
    write_records(i, records.data());
    const double *entry = records.data();
    for (int e = 0; e < npartner[i]; e++) {
      const int count = static_cast<int>(entry[1]);
      out.add_contact(static_cast<tagint>(ubuf(entry[0]).i), entry + 2, (bigint) nitem * count,
                      entry + 2 + nfixed);
      entry += entry_doubles(count);
    }
    out.end_atom();
  }
}

void FixContactHistoryExact::adopt_contacts(const HeldContacts &in)
{
  if (in.width > nfixed)
    error->all(FLERR, "Fix {}: contacts of {} fixed values cannot go into a store of {}", style,
               in.width, nfixed);
  blob_used = 0;
  for (int i = 0; i < atom->nlocal; i++) {
    const int n = i < in.atoms() ? in.contacts_of(i) : 0;
    bigint doubles = 0;
    for (int k = 0; k < n; k++) doubles += 2 + nfixed + in.item_values_of(in.first[i] + k);
    npartner[i] = n;
    blob_length[i] = blob_records[i] = doubles;
    blob_offset[i] = allocate_blob(doubles);
    double *entry = blob_pool + blob_offset[i];
    for (int k = 0; k < n; k++) {
      const bigint c = in.first[i] + k;
      const bigint nvalues = in.item_values_of(c);
      entry[0] = ubuf(in.partner[c]).d;
      entry[1] = static_cast<double>(nvalues / nitem);
      for (int v = 0; v < nfixed; v++) entry[2 + v] = v < in.width ? in.fixed_of(c)[v] : 0.0;
      memcpy(entry + 2 + nfixed, in.items_of(c), nvalues * sizeof(double));
      entry += 2 + nfixed + nvalues;
    }
  }
  blobs_refer_to_pool = false;
  update_maxexchange();
}

int FixContactHistoryExact::size_restart(int nlocal)
{
  return 3 + static_cast<int>(blob_records[nlocal]);
}

int FixContactHistoryExact::maxsize_restart()
{
  int most = 0, all;
  for (int i = 0; i < atom->nlocal; i++) most = MAX(most, 3 + static_cast<int>(blob_records[i]));
  MPI_Allreduce(&most, &all, 1, MPI_INT, MPI_MAX, world);
  return all;
}

double FixContactHistoryExact::memory_usage()
{
  const double peratom = (double) atom->nmax * (sizeof(int) + 3 * sizeof(bigint));
  return peratom + (double) (pool_size + retired_size + blob_size) * sizeof(double) +
      (double) slots_size * sizeof(bigint) + (double) maxatom_list * sizeof(bigint *);
}

/* ----------------------------------------------------------------------
   statistics of the records held now, over all processes:
   [1] contacts, [2] mean items per contact, [3] largest items of a contact,
   [4] bytes per contact (its record in the pool, including unused room, and its neighbour slot)
------------------------------------------------------------------------- */

void FixContactHistoryExact::gather_statistics()
{
  double local[3] = {0.0, 0.0, 0.0}, sums[3];    // contacts, items, bytes
  double most = 0.0, most_all;
  if (firstrecord && pair && pair->list) {
    NeighList *list = pair->list;
    for (int ii = 0; ii < list->inum; ii++) {
      const int i = list->ilist[ii];
      for (int jj = 0; jj < list->numneigh[i]; jj++) {
        const bigint off = firstrecord[i][jj];
        if (off < 0) continue;
        const double items = count(off);
        local[0] += 1.0;
        local[1] += items;
        local[2] += record_doubles(room(off)) * sizeof(double) + sizeof(bigint);
        most = MAX(most, items);
      }
    }
  }
  MPI_Allreduce(local, sums, 3, MPI_DOUBLE, MPI_SUM, world);
  MPI_Allreduce(&most, &most_all, 1, MPI_DOUBLE, MPI_MAX, world);
  stats[0] = sums[0];
  stats[1] = sums[0] > 0.0 ? sums[1] / sums[0] : 0.0;
  stats[2] = most_all;
  stats[3] = sums[0] > 0.0 ? sums[2] / sums[0] : 0.0;
}

double FixContactHistoryExact::compute_vector(int n)
{
  // all four values come from one collective pass per timestep
  if (stats_step != update->ntimestep || n == 0) {
    gather_statistics();
    stats_step = update->ntimestep;
  }
  return stats[n];
}
