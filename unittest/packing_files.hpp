// The packing decks' state files (unittest/decks/in.write_state: an atom dump and a pair dump of
// every contact's history), read and compared without LAMMPS or GoogleTest, so that a tool on a
// machine without either can compare two runs (bench/compare_packing_states.cpp) as the deck
// tests do.
#pragma once

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace deck {

// The rows of the last snapshot of a dump file, each a row of numbers: the lines after the
// snapshot's `header` (e.g. "ITEM: ATOMS"), up to the next "ITEM: TIMESTEP".
inline std::vector<std::vector<double>> last_snapshot_rows(const std::string &path,
                                                           const std::string &header)
{
  std::vector<std::vector<double>> rows;
  std::ifstream in(path);
  std::string line;
  bool in_rows = false;
  while (std::getline(in, line)) {
    if (line.rfind("ITEM: TIMESTEP", 0) == 0) {
      rows.clear();
      in_rows = false;
    } else if (line.rfind(header, 0) == 0) {
      in_rows = true;
    } else if (in_rows) {
      std::istringstream ss(line);
      std::vector<double> v;
      double x;
      while (ss >> x) v.push_back(x);
      rows.push_back(v);
    }
  }
  return rows;
}

// Rows of a `dump custom` (last snapshot), keyed by the first column (atom id).
inline std::map<long, std::vector<double>> read_atom_dump(const std::string &path)
{
  std::map<long, std::vector<double>> rows;
  for (std::vector<double> &v : last_snapshot_rows(path, "ITEM: ATOMS")) {
    if (v.empty()) continue;
    const long id = std::lround(v[0]);
    v.erase(v.begin());
    rows[id] = v;
  }
  return rows;
}

// Rows of a `dump local` (last snapshot) whose first two columns are the atom ids of a pair.
// Pairs are keyed (min id, max id); the columns listed in `odd` (vector components seen from the
// first atom) change sign when the pair was listed the other way round.
inline std::map<std::pair<long, long>, std::vector<double>>
read_pair_dump(const std::string &path, const std::vector<int> &odd)
{
  std::map<std::pair<long, long>, std::vector<double>> rows;
  for (std::vector<double> &v : last_snapshot_rows(path, "ITEM: ENTRIES")) {
    if (v.size() < 2) continue;
    long i = std::lround(v[0]), j = std::lround(v[1]);
    v.erase(v.begin(), v.begin() + 2);
    if (i > j) {
      std::swap(i, j);
      for (int k : odd) v[k] = -v[k];
    }
    rows[{i, j}] = v;
  }
  return rows;
}

// Largest difference of matching rows relative to the largest magnitude of each column.
template <class Key>
double max_relative_difference(const std::map<Key, std::vector<double>> &a,
                               const std::map<Key, std::vector<double>> &b)
{
  if (a.size() != b.size() || a.empty()) return INFINITY;
  std::vector<double> scale;
  for (const auto &[key, row] : a) {
    scale.resize(row.size(), 0.0);
    for (size_t k = 0; k < row.size(); ++k) scale[k] = std::max(scale[k], std::fabs(row[k]));
  }
  double worst = 0.0;
  for (const auto &[key, row] : a) {
    const auto it = b.find(key);
    if (it == b.end() || it->second.size() != row.size()) return INFINITY;
    for (size_t k = 0; k < row.size(); ++k) {
      if (scale[k] == 0.0) continue;
      worst = std::max(worst, std::fabs(row[k] - it->second[k]) / scale[k]);
    }
  }
  return worst;
}

}    // namespace deck

namespace packing {

// columns of the pair dump after the two ids: p7-p9 (tangential force on the first atom) are odd
const std::vector<int> kOddPairColumns = {6, 7, 8};

struct State {
  std::map<long, std::vector<double>> atoms;
  std::map<std::pair<long, long>, std::vector<double>> pairs;
  std::vector<double> totals;    // global vector of the pair style (compute pair), if read
};

inline State read_state(const std::string &out)
{
  State s;
  s.atoms = deck::read_atom_dump(out + ".atoms");
  for (auto &[id, row] : s.atoms) row.erase(row.begin());    // drop the owning process
  s.pairs = deck::read_pair_dump(out + ".pairs", kOddPairColumns);
  return s;
}

}    // namespace packing
