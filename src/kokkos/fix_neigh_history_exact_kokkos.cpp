/* ----------------------------------------------------------------------
   GRANULAR-EXACT: the neighbour history store of pair granular/exact/kk in the
   Kokkos execution space (see the header)
------------------------------------------------------------------------- */

#include "fix_neigh_history_exact_kokkos.h"

#include "atom_kokkos.h"
#include "atom_masks.h"
#include "comm.h"
#include "error.h"
#include "kokkos.h"
#include "memory.h"
#include "neighbor.h"
#include "fix_contact_history_exact.h"
#include "recorded_atom_id.h"
#include "update.h"
#include "utils.h"

#include <algorithm>
#include <exception>
#include <vector>

using namespace LAMMPS_NS;

namespace {

typedef Kokkos::View<double *, LMPDeviceType, Kokkos::MemoryTraits<Kokkos::Unmanaged>> Buffer;

// A partner for `atom`: the contact in `slot`, its state copied verbatim (the canonical
// orientation), in the compact form with its items' count and the items it holds. Counts
// beyond the room are still counted: the store grows to them and tries again. ATOMIC: threads
// share atoms (on one thread a plain count: the atomic additions were most of this kernel's
// time on one host core).
template <bool ATOMIC> struct StoreSlotsAsPartners {
  HistorySlots slots;
  Kokkos::View<const tagint *, LMPDeviceType> tag;
  Kokkos::View<int *, LMPDeviceType> npartner;
  Kokkos::View<tagint **, LMPDeviceType::array_layout, LMPDeviceType> partner;
  Kokkos::View<double **, LMPDeviceType::array_layout, LMPDeviceType> values;
  int nlocal, dnum, width, nitem, room;

  KOKKOS_INLINE_FUNCTION void keep(int atom, tagint other, int slot) const
  {
    int m;
    if constexpr (ATOMIC) m = Kokkos::atomic_fetch_add(&npartner(atom), 1);
    else m = npartner(atom)++;
    if (m >= room) return;
    partner(atom, m) = other;
    const int first = width * m;
    for (int k = 0; k < dnum; k++) values(atom, first + k) = slots.state(slot, k);
    if (nitem == 0) return;
    const int n = slots.count(slot);
    values(atom, first + dnum) = n;
    for (int k = 0; k < nitem * n; k++) values(atom, first + dnum + 1 + k) = slots.items(slot, k);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int ii) const
  {
    const int i = slots.ilist(ii);
    for (int slot = slots.offset(ii); slot < slots.offset(ii + 1); slot++) {
      if (!slots.touch(slot)) continue;
      const int j = slots.neigh(slot) & NEIGHMASK;
      keep(i, tag(j), slot);
      // (newton off: a ghost's owner lists the pair too, and keeps it for its atom)
      if (j < nlocal) keep(j, tag(i), slot);
    }
  }
};

// the most partners of any owned atom
struct MostPartners {
  typedef int value_type;
  Kokkos::View<const int *, LMPDeviceType> npartner;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, int &most) const
  {
    if (npartner(i) > most) most = npartner(i);
  }
};

// Each slot of a new list: the state its first atom keeps for the other (found by its ID), or
// none; in the compact form with its items. Every listed pair is looked up (not only those the
// builder flags as touching): a JKR contact holds after its surfaces part.
struct FillSlotsFromPartners {
  HistorySlots slots;
  Kokkos::View<const tagint *, LMPDeviceType> tag;
  Kokkos::View<const int *, LMPDeviceType> npartner;
  Kokkos::View<const tagint **, LMPDeviceType::array_layout, LMPDeviceType> partner;
  Kokkos::View<const double **, LMPDeviceType::array_layout, LMPDeviceType> values;
  int dnum, width, nitem;

  KOKKOS_INLINE_FUNCTION void operator()(const int ii) const
  {
    const int i = slots.ilist(ii);
    const int n = npartner(i);
    const int columns = static_cast<int>(slots.state.extent(1));
    for (int slot = slots.offset(ii); slot < slots.offset(ii + 1); slot++) {
      const tagint other = tag(slots.neigh(slot) & NEIGHMASK);
      int m = 0;
      while (m < n && partner(i, m) != other) m++;
      const bool held = m < n;
      slots.touch(slot) = held ? 1 : 0;
      const int first = width * m;
      for (int k = 0; k < columns; k++)
        slots.state(slot, k) = (held && k < dnum) ? values(i, first + k) : 0.0;
      if (nitem == 0) continue;
      const int count = held ? static_cast<int>(values(i, first + dnum)) : 0;
      slots.count(slot) = count;
      for (int k = 0; k < nitem * count; k++) slots.items(slot, k) = values(i, first + dnum + 1 + k);
    }
  }
};

// An atom's data in an exchange buffer: its recorded ID, its partners' count, then each
// partner's ID and values (`width` per partner)
KOKKOS_INLINE_FUNCTION int packed_size(int n, int width)
{
  return 2 + n * (width + 1);
}

// Comm's Kokkos exchange: each sent atom's partners after the nsend offsets (the first nsend
// entries say where each atom's data begin, counted from the end of the offsets), and the
// atoms that fill the holes the sent ones leave (copylist) take their place
struct PackExchange {
  typedef int value_type;
  Kokkos::View<const int *, LMPDeviceType> sendlist, copylist;
  Kokkos::View<double *, LMPDeviceType> recorded;
  Kokkos::View<int *, LMPDeviceType> npartner;
  Kokkos::View<tagint **, LMPDeviceType::array_layout, LMPDeviceType> partner;
  Kokkos::View<double **, LMPDeviceType::array_layout, LMPDeviceType> values;
  Buffer buf;
  int nsend, width;

  KOKKOS_INLINE_FUNCTION void operator()(const int s, int &offset, const bool final) const
  {
    const int i = sendlist(s);
    const int n = npartner(i);
    if (final) {
      int m = nsend + offset;
      buf(s) = d_ubuf(m).d;
      buf(m++) = recorded(i);
      buf(m++) = d_ubuf(n).d;
      for (int p = 0; p < n; p++) {
        buf(m++) = d_ubuf(partner(i, p)).d;
        for (int k = 0; k < width; k++) buf(m++) = values(i, width * p + k);
      }
      const int j = copylist(s);
      if (j > -1) {
        recorded(i) = recorded(j);
        const int nj = npartner(j);
        for (int p = 0; p < nj; p++) {
          partner(i, p) = partner(j, p);
          for (int k = 0; k < width; k++) values(i, width * p + k) = values(j, width * p + k);
        }
        npartner(i) = nj;
      }
    }
    offset += packed_size(n, width);
  }
};

// where received atom r's partners begin in the buffer (Comm's Kokkos exchange: the atoms
// from the second neighbour in a dimension follow those from the first, with offsets of their
// own after the first's data)
KOKKOS_INLINE_FUNCTION int received_at(const Buffer &buf, int r, int nrecv1, int nextrarecv1)
{
  if (r < nrecv1) return static_cast<int>(d_ubuf(buf(r)).i);
  return nextrarecv1 + static_cast<int>(d_ubuf(buf(nextrarecv1 + r - nrecv1)).i);
}

struct MostReceived {
  typedef int value_type;
  Kokkos::View<const int *, LMPDeviceType> indices;
  Buffer buf;
  int nrecv1, nextrarecv1;
  KOKKOS_INLINE_FUNCTION void operator()(const int r, int &most) const
  {
    if (indices(r) < 0) return;
    const int n = static_cast<int>(d_ubuf(buf(received_at(buf, r, nrecv1, nextrarecv1) + 1)).i);
    if (n > most) most = n;
  }
};

struct UnpackExchange {
  Kokkos::View<const int *, LMPDeviceType> indices;
  Kokkos::View<double *, LMPDeviceType> recorded;
  Kokkos::View<int *, LMPDeviceType> npartner;
  Kokkos::View<tagint **, LMPDeviceType::array_layout, LMPDeviceType> partner;
  Kokkos::View<double **, LMPDeviceType::array_layout, LMPDeviceType> values;
  Buffer buf;
  int nrecv1, nextrarecv1, width;

  KOKKOS_INLINE_FUNCTION void operator()(const int r) const
  {
    const int i = indices(r);
    if (i < 0) return;
    int m = received_at(buf, r, nrecv1, nextrarecv1);
    recorded(i) = buf(m++);
    const int n = static_cast<int>(d_ubuf(buf(m++)).i);
    npartner(i) = n;
    for (int p = 0; p < n; p++) {
      partner(i, p) = static_cast<tagint>(d_ubuf(buf(m++)).i);
      for (int k = 0; k < width; k++) values(i, width * p + k) = buf(m++);
    }
  }
};

}    // namespace

/* ---------------------------------------------------------------------- */

FixNeighHistoryExactKokkos::FixNeighHistoryExactKokkos(LAMMPS *lmp, int narg, char **arg) :
    FixNeighHistoryExact(lmp, narg, arg)
{
  // LAMMPS hands per-atom restart data to a fix of the same ID and style: this store's data
  // are the host store's, under its name, so a restart crosses between the two both ways
  delete[] style;
  style = utils::strdup("NEIGH_HISTORY/EXACT");
  construct();
}

// (LAMMPS' neighbour history takes exactly its ID, group, style and values per contact)
FixNeighHistoryExactKokkos::FixNeighHistoryExactKokkos(LAMMPS *lmp, char **arg,
                                                       const PartnerItems &partner_items) :
    FixNeighHistoryExact(lmp, 4, arg), items(partner_items)
{
  delete[] style;
  style = utils::strdup("CONTACT_HISTORY/EXACT");
  construct();
}

void FixNeighHistoryExactKokkos::construct()
{
  width = dnum + (items.held() ? 1 + items.nitem * items.room : 0);

  kokkosable = 1;
  exchange_comm_device = 1;
  sort_device = 1;
  atomKK = (AtomKokkos *) atom;
  execution_space = Device;
  // (its hooks touch no atom data on the host: the atom IDs it reads are synced by itself)
  datamask_read = EMPTY_MASK;
  datamask_modify = EMPTY_MASK;

  // the host store's per-atom arrays give way to the views
  memory->destroy(npartner);
  memory->sfree(partner);
  memory->sfree(valuepartner);
  npartner = nullptr;
  partner = nullptr;
  valuepartner = nullptr;
  maxpartner = 0;
  grow_arrays(atom->nmax);
  update_maxexchange();
}

FixNeighHistoryExactKokkos::~FixNeighHistoryExactKokkos() = default;

/* ----------------------------------------------------------------------
   the two spaces' copies
------------------------------------------------------------------------- */

void FixNeighHistoryExactKokkos::sync_host() const
{
  k_recorded.sync_host();
  k_npartner.sync_host();
  k_partner.sync_host();
  k_values.sync_host();
}

void FixNeighHistoryExactKokkos::modified_host()
{
  k_recorded.modify_host();
  k_npartner.modify_host();
  k_partner.modify_host();
  k_values.modify_host();
}

void FixNeighHistoryExactKokkos::sync_device()
{
  k_recorded.sync_device();
  k_npartner.sync_device();
  k_partner.sync_device();
  k_values.sync_device();
}

void FixNeighHistoryExactKokkos::modified_device()
{
  k_recorded.modify_device();
  k_npartner.modify_device();
  k_partner.modify_device();
  k_values.modify_device();
}

// room for `most` partners per atom, and a quarter more (each growth reruns a kernel), the
// contents kept
void FixNeighHistoryExactKokkos::resize_partners(int most)
{
  if (most <= maxpartner) return;
  maxpartner = most + most / 4 + 2;
  k_partner.resize(k_partner.extent(0), maxpartner);
  reallocate_values(k_values.extent(0), maxpartner, true);
  update_maxexchange();
}

// the most doubles one atom sends in an exchange
void FixNeighHistoryExactKokkos::update_maxexchange()
{
  maxexchange = packed_size(maxpartner, width) + 1;
}

// LAMMPS' Kokkos exchange run on the host ('-pk kokkos comm host') hands host buffers, which
// the execution-space form does not read: this store then takes LAMMPS' classic exchange
void FixNeighHistoryExactKokkos::init()
{
  FixNeighHistoryExact::init();
  exchange_comm_device = lmp->kokkos->exchange_comm_on_host ? 0 : 1;
}

/* ----------------------------------------------------------------------
   around a neighbour build
------------------------------------------------------------------------- */

void FixNeighHistoryExactKokkos::pre_exchange()
{
  if (client) client->work_before_build();
  if (slots_client == nullptr)
    error->all(FLERR, "Fix {} is internal to pair granular/exact/kk: do not define it", style);
  store_slots_as_partners(slots_client->history_slots());
}

void FixNeighHistoryExactKokkos::store_slots_as_partners(const HistorySlots &slots)
{
  if (LMPDeviceType::execution_space().concurrency() > 1) store_slots_as_partners<true>(slots);
  else store_slots_as_partners<false>(slots);
}

template <bool ATOMIC>
void FixNeighHistoryExactKokkos::store_slots_as_partners(const HistorySlots &slots)
{
  atomKK->sync(Device, TAG_MASK);
  sync_device();
  StoreSlotsAsPartners<ATOMIC> f;
  f.slots = slots;
  f.tag = atomKK->k_tag.view<LMPDeviceType>();
  f.nlocal = atom->nlocal;
  f.dnum = dnum;
  f.width = width;
  f.nitem = items.nitem;
  for (;;) {
    Kokkos::deep_copy(k_npartner.d_view, 0);
    f.npartner = k_npartner.d_view;
    f.partner = k_partner.d_view;
    f.values = k_values.d_view;
    f.room = maxpartner;
    Kokkos::parallel_for("NEIGH_HISTORY/EXACT/KK:store", Kokkos::RangePolicy<LMPDeviceType>(0, slots.inum), f);
    int most = 0;
    Kokkos::parallel_reduce("NEIGH_HISTORY/EXACT/KK:most",
                            Kokkos::RangePolicy<LMPDeviceType>(0, atom->nlocal),
                            MostPartners{k_npartner.d_view}, Kokkos::Max<int>(most));
    if (most <= maxpartner) break;
    resize_partners(most);    // (and again: the atomic counts give the partners' places)
  }
  modified_device();
}

void FixNeighHistoryExactKokkos::post_neighbor()
{
  if (slots_client == nullptr)
    error->all(FLERR, "Fix {} is internal to pair granular/exact/kk: do not define it", style);
  fill_slots_from_partners(slots_client->slots_of_new_list());
  if (client) {
    client->contacts_matched();
    client->work_after_build();
  }
}

void FixNeighHistoryExactKokkos::fill_slots_from_partners(const HistorySlots &slots)
{
  atomKK->sync(Device, TAG_MASK);
  sync_device();
  FillSlotsFromPartners f;
  f.slots = slots;
  f.tag = atomKK->k_tag.view<LMPDeviceType>();
  f.npartner = k_npartner.d_view;
  f.partner = k_partner.d_view;
  f.values = k_values.d_view;
  f.dnum = dnum;
  f.width = width;
  f.nitem = items.nitem;
  Kokkos::parallel_for("NEIGH_HISTORY/EXACT/KK:fill", Kokkos::RangePolicy<LMPDeviceType>(0, slots.inum), f);
}

/* ----------------------------------------------------------------------
   per-atom arrays: grown, copied, created, sorted with the atoms
------------------------------------------------------------------------- */

void FixNeighHistoryExactKokkos::grow_arrays(int nmax)
{
  const size_t columns = MAX(maxpartner, 1);
  if (k_npartner.extent(0) == 0) {
    k_recorded = decltype(k_recorded)("NEIGH_HISTORY/EXACT/KK:recorded", nmax);
    k_npartner = dual_count("NEIGH_HISTORY/EXACT/KK:npartner", nmax);
    k_partner = dual_partner("NEIGH_HISTORY/EXACT/KK:partner", nmax, columns);
    // (values for the partners counted so far, none before the first: a compact form's room
    // of a large capacity would be allocated, and filled, at every growth while atoms are made)
    reallocate_values(nmax, maxpartner, false);
    return;
  }
  k_recorded.resize(nmax);
  k_npartner.resize(nmax);
  k_partner.resize(nmax, k_partner.extent(1));
  reallocate_values(nmax, k_values.extent(1) / width, true);
}

// The partners' values for `atoms` atoms of `partners` each (their contents kept where asked).
// The compact form keeps room for M + 1 vertices with each partner: a large M asks for more
// than the execution space has, which Kokkos reports without naming M.
void FixNeighHistoryExactKokkos::reallocate_values(size_t atoms, size_t partners, bool keep)
{
  const size_t columns = static_cast<size_t>(width) * partners;
  try {
    if (keep) k_values.resize(atoms, columns);
    else k_values = dual_values("NEIGH_HISTORY/EXACT/KK:values", atoms, columns);
  } catch (const std::exception &e) {
    const double gib = double(atoms) * double(columns) * sizeof(double) / 1073741824.0;
    if (items.held())
      error->one(FLERR,
                 "Fix {}: room for {} atoms of {} contacts each, with {} history items per "
                 "contact ('tangential jaeger capacity M' keeps M + 1 vertices), {:.4g} GiB, "
                 "which the execution space could not allocate ({}): give a smaller capacity "
                 "(16 to 64 follow the Mindlin-Deresiewicz paths closely)",
                 style, atoms, partners, items.room, gib, e.what());
    error->one(FLERR,
               "Fix {}: room for {} atoms of {} contacts each, {:.4g} GiB, which the execution "
               "space could not allocate ({})",
               style, atoms, partners, gib, e.what());
  }
}

void FixNeighHistoryExactKokkos::copy_arrays(int i, int j, int /*delflag*/)
{
  sync_host();
  const int n = k_npartner.h_view(i);
  for (int p = 0; p < n; p++) {
    k_partner.h_view(j, p) = k_partner.h_view(i, p);
    for (int k = 0; k < width; k++) k_values.h_view(j, width * p + k) = k_values.h_view(i, width * p + k);
  }
  k_npartner.h_view(j) = n;
  k_recorded.h_view(j) = k_recorded.h_view(i);
  modified_host();
}

// an atom just created: no partners, its ID recorded (recorded_atom_id.h says why)
void FixNeighHistoryExactKokkos::set_arrays(int i)
{
  sync_host();
  k_npartner.h_view(i) = 0;
  k_recorded.h_view(i) = static_cast<double>(atom->tag[i]);
  modified_host();
  record_created_atom_id(atom, i);
}

double *FixNeighHistoryExactKokkos::recorded_ids_on_host()
{
  k_recorded.sync_host();
  return k_recorded.h_view.data();
}

void FixNeighHistoryExactKokkos::recorded_ids_changed()
{
  k_recorded.modify_host();
}

void FixNeighHistoryExactKokkos::sort_kokkos(Kokkos::BinSort<KeyViewType, BinOp> &sorter)
{
  sync_device();
  sorter.sort(LMPDeviceType(), k_recorded.d_view);
  sorter.sort(LMPDeviceType(), k_npartner.d_view);
  sorter.sort(LMPDeviceType(), k_partner.d_view);
  sorter.sort(LMPDeviceType(), k_values.d_view);
  modified_device();
}

/* ----------------------------------------------------------------------
   migration: in the execution space (Comm's Kokkos exchange), or on the host
------------------------------------------------------------------------- */

int FixNeighHistoryExactKokkos::pack_exchange_kokkos(const int &nsend, DAT::tdual_xfloat_2d &k_buf,
                                                     DAT::tdual_int_1d k_sendlist,
                                                     DAT::tdual_int_1d k_copylist,
                                                     ExecutionSpace /*space*/)
{
  sync_device();
  k_buf.sync_device();
  k_sendlist.sync_device();
  k_copylist.sync_device();
  PackExchange f;
  f.sendlist = k_sendlist.d_view;
  f.copylist = k_copylist.d_view;
  f.recorded = k_recorded.d_view;
  f.npartner = k_npartner.d_view;
  f.partner = k_partner.d_view;
  f.values = k_values.d_view;
  f.buf = Buffer(k_buf.d_view.data(), k_buf.extent(0) * k_buf.extent(1));
  f.nsend = nsend;
  f.width = width;
  int total = 0;
  Kokkos::parallel_scan("NEIGH_HISTORY/EXACT/KK:pack", Kokkos::RangePolicy<LMPDeviceType>(0, nsend), f, total);
  modified_device();
  return nsend + total;
}

void FixNeighHistoryExactKokkos::unpack_exchange_kokkos(DAT::tdual_xfloat_2d &k_buf,
                                                        DAT::tdual_int_1d &k_indices, int nrecv,
                                                        int nrecv1, int nextrarecv1,
                                                        ExecutionSpace /*space*/)
{
  sync_device();
  k_indices.sync_device();
  const Buffer buf(k_buf.d_view.data(), k_buf.extent(0) * k_buf.extent(1));
  MostReceived most_f{k_indices.d_view, buf, nrecv1, nextrarecv1};
  int most = 0;
  Kokkos::parallel_reduce("NEIGH_HISTORY/EXACT/KK:most received",
                          Kokkos::RangePolicy<LMPDeviceType>(0, nrecv), most_f,
                          Kokkos::Max<int>(most));
  resize_partners(most);
  UnpackExchange f;
  f.indices = k_indices.d_view;
  f.recorded = k_recorded.d_view;
  f.npartner = k_npartner.d_view;
  f.partner = k_partner.d_view;
  f.values = k_values.d_view;
  f.buf = buf;
  f.nrecv1 = nrecv1;
  f.nextrarecv1 = nextrarecv1;
  f.width = width;
  Kokkos::parallel_for("NEIGH_HISTORY/EXACT/KK:unpack", Kokkos::RangePolicy<LMPDeviceType>(0, nrecv), f);
  modified_device();
}

// atom i's partners from the host copies: their count, then each partner's ID and values; the
// doubles written
int FixNeighHistoryExactKokkos::pack_partners(int i, double *buf) const
{
  sync_host();
  const int n = k_npartner.h_view(i);
  int m = 0;
  buf[m++] = n;
  for (int p = 0; p < n; p++) {
    buf[m++] = ubuf(k_partner.h_view(i, p)).d;
    for (int k = 0; k < width; k++) buf[m++] = k_values.h_view(i, width * p + k);
  }
  return m;
}

int FixNeighHistoryExactKokkos::pack_exchange(int i, double *buf)
{
  sync_host();
  buf[0] = k_recorded.h_view(i);
  return 1 + pack_partners(i, buf + 1);
}

int FixNeighHistoryExactKokkos::unpack_exchange(int nlocal, double *buf)
{
  sync_host();
  const int n = static_cast<int>(buf[1]);
  resize_partners(n);
  k_recorded.h_view(nlocal) = buf[0];
  int m = 2;
  for (int p = 0; p < n; p++) {
    k_partner.h_view(nlocal, p) = static_cast<tagint>(ubuf(buf[m++]).i);
    for (int k = 0; k < width; k++) k_values.h_view(nlocal, width * p + k) = buf[m++];
  }
  k_npartner.h_view(nlocal) = n;
  modified_host();
  return m;
}

/* ----------------------------------------------------------------------
   restart files: the host store's layout (FixNeighHistoryExact::unpack_restart() reads them)
------------------------------------------------------------------------- */

int FixNeighHistoryExactKokkos::pack_restart(int i, double *buf)
{
  const int m = 1 + pack_partners(i, buf + 1);
  buf[0] = m;    // (the record's length first, as every fix's per-atom restart record)
  return m;
}

int FixNeighHistoryExactKokkos::size_restart(int i)
{
  sync_host();
  return packed_size(k_npartner.h_view(i), width);    // ([length, count, partners])
}

int FixNeighHistoryExactKokkos::maxsize_restart()
{
  int most = 0;
  MPI_Allreduce(&maxpartner, &most, 1, MPI_INT, MPI_MAX, world);
  return packed_size(most, width);
}

/* ----------------------------------------------------------------------
   contacts handed over between stores (between runs), and counted
------------------------------------------------------------------------- */

bigint FixNeighHistoryExactKokkos::entries_held() const
{
  sync_host();
  bigint n = 0;
  for (int i = 0; i < atom->nlocal; i++) n += k_npartner.h_view(i);
  return n;
}

// the item values partner p of atom i holds (none in the neighbour form)
int FixNeighHistoryExactKokkos::held_item_doubles(int i, int p) const
{
  if (!items.held()) return 0;
  return items.nitem * static_cast<int>(k_values.h_view(i, width * p + count_column()));
}

void FixNeighHistoryExactKokkos::export_contacts(HeldContacts &out) const
{
  sync_host();
  out.clear(dnum);
  std::vector<double> values(width);
  for (int i = 0; i < atom->nlocal; i++) {
    for (int p = 0; p < k_npartner.h_view(i); p++) {
      for (int k = 0; k < width; k++) values[k] = k_values.h_view(i, width * p + k);
      out.add_contact(k_partner.h_view(i, p), values.data(), held_item_doubles(i, p),
                      values.data() + dnum + 1);
    }
    out.end_atom();
  }
}

// (the neighbour form keeps no items: LAMMPS' neighbour store does not either)
void FixNeighHistoryExactKokkos::adopt_contacts(const HeldContacts &in)
{
  if (in.width > dnum)
    error->all(FLERR, "Fix {}: contacts of {} values cannot go into a store of {}", style,
               in.width, dnum);
  const int nlocal = atom->nlocal;
  int most = 0;
  for (int i = 0; i < nlocal && i < in.atoms(); i++) most = MAX(most, in.contacts_of(i));
  if (items.held()) make_room_for_items(in);
  sync_host();
  resize_partners(most);
  for (int i = 0; i < nlocal; i++) {
    const int n = i < in.atoms() ? in.contacts_of(i) : 0;
    k_npartner.h_view(i) = n;
    for (int p = 0; p < n; p++) {
      const bigint c = in.first[i] + p;
      k_partner.h_view(i, p) = in.partner[c];
      for (int k = 0; k < dnum; k++)
        k_values.h_view(i, width * p + k) = k < in.width ? in.fixed_of(c)[k] : 0.0;
      if (!items.held()) continue;
      const bigint held = in.item_values_of(c);
      k_values.h_view(i, width * p + dnum) = static_cast<double>(held / items.nitem);
      for (bigint k = 0; k < held; k++) k_values.h_view(i, width * p + dnum + 1 + k) = in.items_of(c)[k];
    }
  }
  modified_host();
}

// Room for the most items a contact taken in holds (a law change from a Jaeger law of a larger
// capacity, or to a law without vertices: they go over to their laws at the first build), the
// store empty until it takes them
void FixNeighHistoryExactKokkos::make_room_for_items(const HeldContacts &in)
{
  bigint most = 0;
  for (bigint c = 0; c < in.contacts(); c++) most = MAX(most, in.item_values_of(c));
  const bigint room = (most + items.nitem - 1) / items.nitem;
  if (room <= items.room) return;
  if (room > (MAXSMALLINT - dnum - 1) / items.nitem / MAX(maxpartner, 1))
    error->one(FLERR, "Fix {}: a contact taken in holds {} history items, more than a store in "
                      "the execution space can make room for", style, room);
  items.room = static_cast<int>(room);
  width = dnum + 1 + items.nitem * items.room;
  reallocate_values(k_values.extent(0), MAX(maxpartner, 1), false);
  update_maxexchange();
}

double FixNeighHistoryExactKokkos::memory_usage()
{
  return static_cast<double>(k_npartner.extent(0)) *
      (sizeof(int) + k_partner.extent(1) * sizeof(tagint) + k_values.extent(1) * sizeof(double));
}

/* ----------------------------------------------------------------------
   the compact form: the restart data of the host's compact store
------------------------------------------------------------------------- */

namespace {
constexpr int STORE_COMPACT = 1;    // (StoreRestartData::store)

// the arguments after the values per contact: doubles per item and items per contact
PartnerItems compact_items(LAMMPS *lmp, int narg, char **arg)
{
  if (narg != 6)
    lmp->error->all(FLERR, "Illegal fix CONTACT_HISTORY/EXACT/KK command: expected <fixed "
                           "values> <doubles per item> <items per contact>");
  PartnerItems items;
  items.nitem = utils::inumeric(FLERR, arg[4], false, lmp);
  items.room = utils::inumeric(FLERR, arg[5], false, lmp);
  if (items.nitem < 1 || items.room < 0)
    lmp->error->all(FLERR, "Illegal fix CONTACT_HISTORY/EXACT/KK sizes {} {}", items.nitem,
                    items.room);
  return items;
}
}    // namespace

FixContactHistoryExactKokkos::FixContactHistoryExactKokkos(LAMMPS *lmp, int narg, char **arg) :
    FixNeighHistoryExactKokkos(lmp, arg, compact_items(lmp, narg, arg))
{
}

void FixContactHistoryExactKokkos::write_restart(FILE *fp)
{
  if (update->whichflag != 0) pre_exchange();
  EndedWork::write(fp, world, comm->me, client, STORE_COMPACT, dnum);
}

// [length, partners, doubles of the entries, then per partner: ID, count, fixed part, items]
// (FixContactHistoryExact::pack_restart())
int FixContactHistoryExactKokkos::pack_restart(int i, double *buf)
{
  sync_host();
  const int n = k_npartner.h_view(i);
  int m = 3;
  for (int p = 0; p < n; p++) {
    const int first = width * p;
    buf[m++] = ubuf(k_partner.h_view(i, p)).d;
    buf[m++] = k_values.h_view(i, first + dnum);
    for (int k = 0; k < dnum; k++) buf[m++] = k_values.h_view(i, first + k);
    const int held = held_item_doubles(i, p);
    for (int k = 0; k < held; k++) buf[m++] = k_values.h_view(i, first + dnum + 1 + k);
  }
  buf[0] = m;
  buf[1] = n;
  buf[2] = m - 3;
  return m;
}

void FixContactHistoryExactKokkos::unpack_restart(int nlocal, int nth)
{
  FixContactHistoryExact::read_restart_record(lmp, style, nlocal, nth, dnum, items.nitem,
                                              ended_work.file.width, from_file,
                                              have_file_contacts);
}

int FixContactHistoryExactKokkos::size_restart(int i)
{
  sync_host();
  int m = 3;
  for (int p = 0; p < k_npartner.h_view(i); p++) m += 2 + dnum + held_item_doubles(i, p);
  return m;
}

int FixContactHistoryExactKokkos::maxsize_restart()
{
  int most = 0;
  MPI_Allreduce(&maxpartner, &most, 1, MPI_INT, MPI_MAX, world);
  return 3 + most * (2 + dnum + items.nitem * items.room);
}
