/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: the contacts a history store holds, in one form both
   stores (LAMMPS' neighbour history, the compact store) read and write, and
   what their restart data say about them.

   * HeldContacts: per owned atom its partners (by atom ID), each with its
     fixed state (`width` doubles) and its items (the Jaeger vertices). A
     store hands its contacts over in this form when the pair style needs
     another store (a law that needs the other kind, or a wider state), and a
     restart record is read into it, checked, before any store takes it.
   * HistoryProvenance: the law each type pair's contacts were made with,
     written with the store's restart data, so that a pair style defined anew
     after read_restart knows which law wrote the histories it is handed.
   * RestartRecord: a per-atom restart record, read with every count, length
     and ID checked against what the record can hold; damage stops with an
     error that names the atom and the field.
------------------------------------------------------------------------- */

#ifndef GE_HELD_CONTACTS_H
#define GE_HELD_CONTACTS_H

#include "contact_law_io.h"
#include "error.h"
#include "lmptype.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace LAMMPS_NS {

struct HeldContacts {
  int width = 0;                    // fixed values per contact
  std::vector<bigint> first{0};     // per atom: its first contact (atoms + 1 entries)
  std::vector<tagint> partner;      // per contact
  std::vector<double> fixed;        // width per contact
  std::vector<bigint> item_first{0};    // per contact: its first item value (contacts + 1)
  std::vector<double> items;

  int atoms() const { return static_cast<int>(first.size()) - 1; }
  bigint contacts() const { return static_cast<bigint>(partner.size()); }
  int contacts_of(int i) const { return static_cast<int>(first[i + 1] - first[i]); }
  const double *fixed_of(bigint c) const { return fixed.data() + width * c; }
  bigint item_values_of(bigint c) const { return item_first[c + 1] - item_first[c]; }
  const double *items_of(bigint c) const { return items.data() + item_first[c]; }

  void clear(int fixed_width)
  {
    *this = HeldContacts();
    width = fixed_width;
  }
  void add_contact(tagint tag, const double *values, bigint nitem_values, const double *item_values)
  {
    partner.push_back(tag);
    fixed.insert(fixed.end(), values, values + width);
    items.insert(items.end(), item_values, item_values + nitem_values);
    item_first.push_back(static_cast<bigint>(items.size()));
  }
  void end_atom() { first.push_back(contacts()); }
  // the contacts of the first `nlocal` atoms moved to `out`, atoms without a record having none
  void move_to(HeldContacts &out, int nlocal)
  {
    while (atoms() < nlocal) end_atom();
    out = std::move(*this);
    *this = HeldContacts();
  }
  // more fixed values per contact, the new ones zero
  void widen(int to)
  {
    if (to <= width) return;
    std::vector<double> wider(static_cast<size_t>(to) * partner.size(), 0.0);
    for (size_t c = 0; c < partner.size(); c++)
      std::copy(fixed.begin() + width * c, fixed.begin() + width * (c + 1), wider.begin() + to * c);
    fixed.swap(wider);
    width = to;
  }
};

/* ----------------------------------------------------------------------
   the laws the stored contacts were made with, by type pair (i <= j)
------------------------------------------------------------------------- */

class HistoryProvenance {
 public:
  bool empty() const { return ntypes_ == 0; }
  int ntypes() const { return ntypes_; }
  void reset(int ntypes)
  {
    ntypes_ = ntypes;
    known_.assign((ntypes + 1) * (ntypes + 1), 0);
    laws_.assign((ntypes + 1) * (ntypes + 1), ge::ContactLaw());
  }
  bool has(int i, int j) const { return !empty() && known_[index(i, j)] != 0; }
  const ge::ContactLaw &law(int i, int j) const { return laws_[index(i, j)]; }
  void set(int i, int j, const ge::ContactLaw &lw)
  {
    known_[index(i, j)] = 1;
    laws_[index(i, j)] = lw;
  }

  // [format, ntypes, then for i <= j: known, the law's fields]
  std::vector<double> serialized() const
  {
    std::vector<double> v = {double(RESTART_FORMAT), double(ntypes_)};
    for (int i = 1; i <= ntypes_; i++)
      for (int j = i; j <= ntypes_; j++) {
        v.push_back(has(i, j) ? 1.0 : 0.0);
        ge::ContactLaw lw = law(i, j);
        visit_law_fields(lw, [&v](const auto &x) { v.push_back(field_value(x)); });
      }
    return v;
  }
  // false (and empty) where the values are not a provenance of a format this build reads
  bool parse(const double *v, bigint n)
  {
    reset(0);
    if (n < 2 || !(v[0] >= 2 && v[0] <= RESTART_FORMAT) || !(v[1] >= 1 && v[1] < 1e6)) return false;
    const int format = static_cast<int>(v[0]), types = static_cast<int>(v[1]);
    const bigint fields = law_field_count(format);
    if (n != 2 + bigint(types) * (types + 1) / 2 * (1 + fields)) return false;
    reset(types);
    bigint m = 2;
    for (int i = 1; i <= types; i++)
      for (int j = i; j <= types; j++) {
        const bool known = v[m++] != 0.0;
        ge::ContactLaw lw{};
        visit_law_fields(lw, [&](auto &x) { set_field(x, v[m++]); }, format);
        if (known) set(i, j, lw);
      }
    return true;
  }

 private:
  int index(int i, int j) const { return i <= j ? i * (ntypes_ + 1) + j : j * (ntypes_ + 1) + i; }
  int ntypes_ = 0;
  std::vector<signed char> known_;
  std::vector<ge::ContactLaw> laws_;
};

/* ----------------------------------------------------------------------
   The global restart data of both stores:
     [STORE_MARK, store (0 neighbour history, 1 compact), values per contact, ended work (2),
      n, provenance (n values)]
   Files of restart formats up to 7 hold only the ended work (2 values): their first value is
   a sum of work, never the mark, so nothing past it is read.
------------------------------------------------------------------------- */

struct StoreRestartData {
  static constexpr double STORE_MARK = -3.818730112963e+297;
  int store = -1;    // -1: a file without this block
  int width = -1;
  double ended[2] = {0.0, 0.0};
  HistoryProvenance laws;

  static std::vector<double> values(int store, int width, const double ended[2],
                                    const HistoryProvenance &laws)
  {
    const std::vector<double> prov = laws.serialized();
    std::vector<double> v = {STORE_MARK, double(store), double(width), ended[0], ended[1],
                             double(prov.size())};
    v.insert(v.end(), prov.begin(), prov.end());
    return v;
  }
  void read(const double *v)
  {
    if (v[0] != STORE_MARK) {
      ended[0] = v[0];
      ended[1] = v[1];
      return;
    }
    store = static_cast<int>(v[1]);
    width = static_cast<int>(v[2]);
    ended[0] = v[3];
    ended[1] = v[4];
    const double n = v[5];
    if (n >= 0 && n < 1e9) laws.parse(v + 6, static_cast<bigint>(n));
  }
};

/* ----------------------------------------------------------------------
   one atom's restart record, read with checks: doubles [begin, end) of atom->extra[i]
------------------------------------------------------------------------- */

class RestartRecord {
 public:
  RestartRecord(Error *error, const char *store, tagint atom, const double *values, bigint length) :
      error_(error), store_(store), atom_(atom), v_(values), length_(length)
  {
  }
  bigint position() const { return m_; }
  bigint left() const { return length_ - m_; }

  // a count in [lo, hi]
  bigint count(const char *field, bigint lo, bigint hi)
  {
    const double x = next(field);
    if (!(x >= double(lo) && x <= double(hi)) || x != std::floor(x))
      damaged(field, x, lo == hi ? fmt::format("{} (what its other fields add up to)", lo)
                                 : fmt::format("a whole number from {} to {}", lo, hi));
    return static_cast<bigint>(x);
  }
  // an atom ID (stored as its bits, LAMMPS' ubuf), not the atom's own
  tagint partner_id(const char *field)
  {
    const double x = next(field);
    const int64_t raw = ubuf(x).i;    // (checked before it is narrowed to a tagint)
    if (raw < 1 || raw > int64_t(MAXTAGINT) || raw == int64_t(atom_))
      damaged(field, static_cast<double>(raw), "the ID of another atom");
    return static_cast<tagint>(raw);
  }
  // n finite values
  const double *values(const char *field, bigint n)
  {
    if (n > left()) damaged(field, double(n), fmt::format("at most the {} values left", left()));
    const double *at = v_ + m_;
    for (bigint k = 0; k < n; k++)
      if (!std::isfinite(at[k])) damaged(field, at[k], "a finite number");
    m_ += n;
    return at;
  }
  [[noreturn]] void damaged(const char *field, double value, const std::string &expected) const
  {
    error_->one(FLERR,
                "Pair granular/exact: the restart file's contact history ({}) of atom {} is "
                "damaged: its {} is {}, where the record holds {} (at value {} of {}); the file "
                "cannot be read: continue from an undamaged copy, or read it with 'pair_style "
                "none' so that the contacts start without history",
                store_, atom_, field, value, expected, m_, length_);
  }
  // partners listed twice would share one history
  void check_distinct(std::vector<tagint> ids) const
  {
    std::sort(ids.begin(), ids.end());
    const auto twice = std::adjacent_find(ids.begin(), ids.end());
    if (twice != ids.end())
      damaged("list of partners", double(*twice), "each partner once (this one is listed twice)");
  }

 private:
  double next(const char *field)
  {
    if (m_ >= length_) damaged(field, double(m_), "fewer values (its end is reached)");
    return v_[m_++];
  }
  Error *error_;
  const char *store_;
  tagint atom_;
  const double *v_;
  bigint length_;
  bigint m_ = 0;
};

/* ----------------------------------------------------------------------
   where the record of the nth fix with per-atom restart data begins in atom i's extra values,
   and how many values it has (each record starts with its own length), checked
------------------------------------------------------------------------- */

inline void locate_restart_record(Error *error, const char *store, tagint atom,
                                  const double *extra, int available, int nth, bigint &begin,
                                  bigint &length)
{
  RestartRecord all(error, store, atom, extra, available);
  begin = 0;
  for (int k = 0; k <= nth; k++) {
    const bigint at = all.position();
    const bigint n = all.count(k < nth ? "record offset (an earlier fix's record length)"
                                       : "record length",
                               1, available - at);
    begin = at;
    length = n;
    if (k < nth) all.values("earlier fix's record", n - 1);
  }
}

}    // namespace LAMMPS_NS

#endif
