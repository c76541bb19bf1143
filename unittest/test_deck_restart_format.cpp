// Restart files with a format: the pair style writes a mark, its restart format and the layout
// of the per-contact histories before the laws (each law field by field). A file of another
// format or layout stops with an error that says so, instead of being read with its values
// shifted or its contact states misread. The files of the other cases are made from a valid one
// by changing the header's numbers in place.
#include "deck_util.hpp"

#include <gmock/gmock.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using deck::num;

std::vector<char> read_file(const std::string &path)
{
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_file(const std::string &path, const std::vector<char> &bytes)
{
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// where the pair's global restart data begin: the mark (a double no cutoff can be)
size_t mark_offset(const std::vector<char> &bytes)
{
  const double mark = -7.291862955555e+299;
  char pattern[sizeof(double)];
  std::memcpy(pattern, &mark, sizeof(double));
  for (size_t k = 0; k + sizeof(double) <= bytes.size(); k++)
    if (std::memcmp(bytes.data() + k, pattern, sizeof(double)) == 0) return k;
  return std::string::npos;
}

// two touching spheres with a classic contact, set moving by `motion`, run `steps` steps of
// `dt` and written to `file` (by default they drift together, their contact unloading)
void write_two_spheres(const std::string &file,
                       const std::string &motion = "velocity all set 0.01 0 0",
                       const std::string &dt = "1e-6", int steps = 10)
{
  deck::Lammps lmp;
  lmp.command(deck::si_sphere_box("-0.01 0.01 -0.01 0.01 -0.01 0.01"));
  lmp.command(R"(
create_atoms    1 single 0 0 0
create_atoms    1 single 0 0 1.998e-3
set             group all diameter 2e-3
set             group all density 2500
)" + motion + R"(
pair_style      granular/exact
pair_coeff      * * hooke 2e5 tangential classic 1.6e5 0.4
fix             integrate all nve/sphere
timestep        )" + dt + "\nrun " + std::to_string(steps) + "\nwrite_restart " + file);
}

std::string error_reading(const std::string &file)
{
  deck::Lammps lmp;
  return lmp.error_of("read_restart " + file + "\nrun 0");
}

}    // namespace

TEST(DeckRestartFormat, OtherFormatsAndLayoutsStopWithAnError)
{
  write_two_spheres("valid.restart");
  EXPECT_EQ(error_reading("valid.restart"), "");    // the file as written continues
  const std::vector<char> valid = read_file("valid.restart");
  const size_t at = mark_offset(valid);
  ASSERT_NE(at, std::string::npos) << "no restart mark in the file";
  // after the mark: the number of layout values, then (format, history store, values per
  // contact, catalogue state, Jaeger fixed part, doubles per vertex, law fields, store width)
  const size_t layout = at + sizeof(double) + sizeof(int);
  auto with_int = [&](size_t offset, int value) {
    std::vector<char> bytes = valid;
    std::memcpy(bytes.data() + offset, &value, sizeof(int));
    return bytes;
  };

  // a file from before the format: its pair data began with the cutoff (-1 without one)
  std::vector<char> old = valid;
  const double cutoff = -1.0;
  std::memcpy(old.data() + at, &cutoff, sizeof(double));
  write_file("old.restart", old);
  EXPECT_THAT(error_reading("old.restart"),
              testing::HasSubstr("was written by a GRANULAR-EXACT from before restart format 2"));

  write_file("format8.restart", with_int(layout, 8));
  EXPECT_THAT(error_reading("format8.restart"),
              testing::HasSubstr("has restart format 8; this version reads formats 2 to 7"));

  write_file("values12.restart", with_int(layout + 2 * sizeof(int), 12));
  EXPECT_THAT(error_reading("values12.restart"),
              testing::HasSubstr("per-contact layout (format, history store, values per contact, "
                                 "catalogue state, Jaeger fixed part, doubles per vertex, law "
                                 "fields) = (7, 0, 12,"));

  write_file("fields.restart", with_int(layout + 6 * sizeof(int), 7));
  EXPECT_THAT(error_reading("fields.restart"),
              testing::HasSubstr("is not this build's (7, 0, 11,"));
}

// A file of an older restart format, made from one of this build's format (7) by taking out
// what the later formats added: format 6 differs only in its number where no law is `tangential
// coulomb` (its contacts kept 3 values fewer: DeckCoulomb.Format6RestartFileContinuesAsThatVersionDid
// reads such a file), format 5 lacks the work settings after the cutoff ('work yes',
// 0 in `valid`, and the steps whose work was not tracked), format 4 also the solver of
// `tangential coulomb` (the last law field), format 3 also the surface energy of jkr and dmt
// (the field before), format 2 also the Yade moments' dashpots (the two fields before) and the
// store width (the layout's last value). Each of the removed fields must be 0 in `valid`.
static std::vector<char> older_format(const std::vector<char> &valid, int format)
{
  const size_t at = mark_offset(valid);
  EXPECT_NE(at, std::string::npos);
  int n = 0;
  std::memcpy(&n, valid.data() + at + sizeof(double), sizeof(int));
  EXPECT_EQ(n, 8) << "format 7 layout: 8 values";
  const size_t layout = at + sizeof(double) + sizeof(int);
  if (format == 6) {
    std::vector<char> old = valid;
    std::memcpy(old.data() + layout, &format, sizeof(int));
    return old;
  }
  int nfields = 0;
  std::memcpy(&nfields, valid.data() + layout + 6 * sizeof(int), sizeof(int));
  // the pair data: [mark][n][layout: n ints][cutoff][work: 3 doubles][setflag][fields] (one
  // type)
  const size_t cutoff = layout + n * sizeof(int);
  const size_t work = cutoff + sizeof(double);
  const size_t fields = work + 3 * sizeof(double) + sizeof(int);
  double work_yes = 1.0;
  std::memcpy(&work_yes, valid.data() + work, sizeof(double));
  EXPECT_EQ(work_yes, 0.0) << "no 'work yes' in the file the older ones are made from";
  const int removed = format == 5 ? 0 : format == 4 ? 1 : format == 3 ? 2 : 4;
  const int n_old = format >= 3 ? 8 : 7, nfields_old = nfields - removed;
  std::vector<char> old(valid.begin(), valid.begin() + layout);
  std::memcpy(old.data() + at + sizeof(double), &n_old, sizeof(int));
  auto append = [&old](const char *p, size_t size) { old.insert(old.end(), p, p + size); };
  append(reinterpret_cast<const char *>(&format), sizeof(int));
  append(valid.data() + layout + sizeof(int), 5 * sizeof(int));
  append(reinterpret_cast<const char *>(&nfields_old), sizeof(int));
  if (n_old == 8) append(valid.data() + layout + 7 * sizeof(int), sizeof(int));    // store width
  append(valid.data() + cutoff, sizeof(double));
  append(valid.data() + work + 3 * sizeof(double), sizeof(int));    // setflag
  for (int k = nfields - removed; k < nfields; k++) {
    double value;
    std::memcpy(&value, valid.data() + fields + k * sizeof(double), sizeof(double));
    EXPECT_EQ(value, 0.0) << "law field " << k << " is taken out of the older format";
  }
  append(valid.data() + fields, nfields_old * sizeof(double));
  old.insert(old.end(), valid.begin() + fields + nfields * sizeof(double), valid.end());
  return old;
}

// Files of restart formats 2 to 6 are still read: the two spheres continue from them exactly as
// from the format 7 file of the same run (the fields the older files lack are 0 there: no
// dashpots on the Yade moments, no adhesion, the Gauss-Seidel solver, work tracked as the
// outputs ask).
TEST(DeckRestartFormat, Format2To6FilesAreStillRead)
{
  // two spheres pressed together and sheared: a contact with a tangential history
  write_two_spheres("valid7.restart",
                    "velocity all set 0 0 0\nset atom 1 vz 0.05 vx 0.02\nset atom 2 vz -0.05",
                    "1e-7", 20);
  const std::vector<char> valid = read_file("valid7.restart");
  write_file("format2.restart", older_format(valid, 2));
  write_file("format3.restart", older_format(valid, 3));
  write_file("format4.restart", older_format(valid, 4));
  write_file("format5.restart", older_format(valid, 5));
  write_file("format6.restart", older_format(valid, 6));

  std::vector<double> x[6];
  const char *files[6] = {"valid7.restart",  "format2.restart", "format3.restart",
                          "format4.restart", "format5.restart", "format6.restart"};
  for (int k = 0; k < 6; k++) {
    deck::Lammps lmp;
    lmp.command(std::string("read_restart ") + files[k] +
                "\ncomm_modify vel yes\nfix integrate all nve/sphere\nrun 2");
    auto **xs = static_cast<double **>(lammps_extract_atom(lmp.handle(), "x"));
    auto **fs = static_cast<double **>(lammps_extract_atom(lmp.handle(), "f"));
    for (int i = 0; i < 2; i++)
      for (int d = 0; d < 3; d++) x[k].insert(x[k].end(), {xs[i][d], fs[i][d]});
  }
  EXPECT_EQ(x[0], x[1]);
  EXPECT_EQ(x[0], x[2]);
  EXPECT_EQ(x[0], x[3]);
  EXPECT_EQ(x[0], x[4]);
  EXPECT_EQ(x[0], x[5]);
  double largest_force = 0.0;    // (the spheres still touch: the contact's history was used)
  for (size_t k = 1; k < x[0].size(); k += 2) largest_force = std::max(largest_force, std::fabs(x[0][k]));
  EXPECT_GT(largest_force, 0.0);
}

// The laws come back field by field: seven spheres touching with six laws (refined with its
// options and viscous damping, classic, Jaeger with a capacity, Mindlin-Deresiewicz with Yade
// moments, tti, the Walton-Braun spring and friction) continue after a restart as the run split
// at the same step does, bit for bit.
TEST(DeckRestartFormat, LawsComeBackFieldByField)
{
  const std::string setup = deck::si_sphere_box("-0.01 0.01 -0.01 0.01 -0.01 0.01", 3) + R"(
create_atoms    1 single 0 0 0
create_atoms    2 single 0 0 1.998e-3
create_atoms    3 single 0 1.998e-3 0
create_atoms    2 single 0 0 3.996e-3
create_atoms    3 single 0 3.996e-3 0
create_atoms    1 single 0 0 -1.998e-3
create_atoms    3 single 0 1.998e-3 1.998e-3
set             group all diameter 2e-3
set             group all density 2500
velocity        all set 0.01 0.002 0
set             atom 1 omega 300 100 200
pair_style      granular/exact history compact
pair_coeff      1 1 hooke 2e5 damping viscous 0.02 0.01 tangential refined 1.6e5 0.4 &
                onset no twirl yes
pair_coeff      1 2 hooke 2e5 tangential classic 1.6e5 0.3
pair_coeff      2 2 hertz 7e10 0.25 tangential jaeger 0.4 capacity 8
pair_coeff      1 3 hertz 7e10 0.25 tangential dd 0.5 rolling yade beta 0.3 eta 0.05 &
                twisting yade kr 0.01 eta 0.1
pair_coeff      2 3 hertz 7e10 0.25 damping tsuji en 0.7 tangential tti 0.5
pair_coeff      3 3 hls 2e5 0.8 tangential walton_braun 1.5e5 0.3
fix             integrate all nve/sphere
timestep        1e-8
compute         f all property/atom fx fy fz tqx tqy tqz
compute         s all reduce sum c_f[1] c_f[2] c_f[3] c_f[4] c_f[5] c_f[6]
thermo_style    custom step c_s[1] c_s[2] c_s[3] c_s[4] c_s[5] c_s[6]
)";
  std::vector<double> uninterrupted, restarted;
  // force and torque of every atom, in the order of the atom IDs (1 to 7)
  auto forces = [](deck::Lammps &lmp) {
    std::vector<double> f(7 * 6, 0.0);
    auto **fa = static_cast<double **>(lammps_extract_atom(lmp.handle(), "f"));
    auto **ta = static_cast<double **>(lammps_extract_atom(lmp.handle(), "torque"));
    auto *tag = static_cast<int *>(lammps_extract_atom(lmp.handle(), "id"));
    const int n = static_cast<int>(lammps_get_natoms(lmp.handle()));
    for (int i = 0; i < n; i++)
      for (int k = 0; k < 3; k++) {
        f[6 * (tag[i] - 1) + k] = fa[i][k];
        f[6 * (tag[i] - 1) + 3 + k] = ta[i][k];
      }
    return f;
  };
  {
    deck::Lammps lmp;
    lmp.command(setup + "run 20\nrun 5");
    uninterrupted = forces(lmp);
  }
  {
    deck::Lammps lmp;
    lmp.command(setup + "run 20\nwrite_restart laws.restart");
  }
  {
    deck::Lammps lmp;
    lmp.command("read_restart laws.restart\ncomm_modify vel yes\nfix integrate all nve/sphere\n"
                "run 5");
    restarted = forces(lmp);
  }
  ASSERT_EQ(uninterrupted.size(), restarted.size());
  for (size_t k = 0; k < uninterrupted.size(); k++) EXPECT_EQ(uninterrupted[k], restarted[k]) << k;
}

// ---- damaged history records ------------------------------------------------------------------

namespace {

double ubuf_of(long long id)
{
  double d;
  std::memcpy(&d, &id, sizeof(double));    // LAMMPS' ubuf: an atom ID's bits in a double
  return d;
}

// where the doubles `pattern` stand in the file (npos: nowhere)
size_t find_doubles(const std::vector<char> &bytes, const std::vector<double> &pattern)
{
  const size_t n = pattern.size() * sizeof(double);
  for (size_t k = 0; k + n <= bytes.size(); k++)
    if (std::memcmp(bytes.data() + k, pattern.data(), n) == 0) return k;
  return std::string::npos;
}

std::vector<char> with_double(std::vector<char> bytes, size_t offset, double value)
{
  std::memcpy(bytes.data() + offset, &value, sizeof(double));
  return bytes;
}

// two touching spheres pressed and sheared for 20 steps under `law`, written to `file`
void write_sheared_pair(const std::string &file, const std::string &law)
{
  deck::Lammps lmp;
  lmp.command(deck::si_sphere_box("-0.01 0.01 -0.01 0.01 -0.01 0.01") + R"(
create_atoms    1 single 0 0 0
create_atoms    1 single 0 0 1.998e-3
set             group all diameter 2e-3
set             group all density 2500
velocity        all set 0 0 0
set             atom 1 vz 0.05 vx 0.02
set             atom 2 vz -0.05
pair_style      granular/exact
pair_coeff      * * )" + law + R"(
fix             integrate all nve/sphere
timestep        1e-7
run             20
write_restart   )" + file);
}

struct Damage {
  const char *what;
  size_t field;    // the field's index from the record's start
  double value;
  const char *message;
};

// Every count, length and ID field of atom 1's record set to values no record can hold: each
// stops at read_restart's first run with an error naming the atom and the field (no crash).
void expect_damage_named(const std::string &valid_file, size_t record,
                         const std::vector<Damage> &damages)
{
  const std::vector<char> valid = read_file(valid_file);
  for (const Damage &d : damages) {
    SCOPED_TRACE(d.what);
    write_file("damaged.restart", with_double(valid, record + d.field * sizeof(double), d.value));
    const std::string msg = error_reading("damaged.restart");
    EXPECT_THAT(msg, testing::HasSubstr("contact history"));
    EXPECT_THAT(msg, testing::HasSubstr("of atom 1 is damaged"));
    EXPECT_THAT(msg, testing::HasSubstr(d.message));
  }
}

// the damages of the two fields both stores' records begin with: their length and their count
// of partners, and `more`
std::vector<Damage> with_length_and_partners_damaged(const std::vector<Damage> &more)
{
  const double nan = std::nan("");
  std::vector<Damage> damages = {
      {"length 1e9", 0, 1e9, "record length is 1000000000"},
      {"length -5", 0, -5.0, "record length is -5"},
      {"length NaN", 0, nan, "record length is nan"},
      {"partners 1e9", 1, 1e9, "number of partners is 1000000000"},
      {"partners 2^31 - 1", 1, 2147483647.0, "number of partners is 2147483647"},
      {"partners -5", 1, -5.0, "number of partners is -5"},
      {"partners NaN", 1, nan, "number of partners is nan"},
      {"partners 65536", 1, 65536.0, "number of partners is 65536"}};
  damages.insert(damages.end(), more.begin(), more.end());
  return damages;
}

}    // namespace

// LAMMPS' neighbour history layout: [length, partners, then per partner its ID and 11 values]
TEST(DeckRestartFormat, DamagedNeighbourHistoryRecordsStopWithAnError)
{
  write_sheared_pair("neigh.restart", "hooke 2e5 tangential classic 1.6e5 0.4");
  EXPECT_EQ(error_reading("neigh.restart"), "");
  const size_t record = find_doubles(read_file("neigh.restart"), {14.0, 1.0, ubuf_of(2)});
  ASSERT_NE(record, std::string::npos) << "atom 1's record [14, 1, ID 2, ...] not found";
  const double nan = std::nan("");
  expect_damage_named("neigh.restart", record,
                      with_length_and_partners_damaged({
                       {"partners 0.5", 1, 0.5, "number of partners is 0.5"},
                       {"partner ID 0", 2, ubuf_of(0), "partner ID is 0"},
                       {"partner ID itself", 2, ubuf_of(1), "partner ID is 1"},
                       {"partner ID 2^40", 2, ubuf_of(1LL << 40), "partner ID is 1099511627776"},
                       {"a value NaN", 5, nan, "contact values is nan"}}));
}

// The compact store's layout: [length, partners, doubles of the entries, then per partner
// [ID, count, 7 fixed values, count vertices of 4]]
TEST(DeckRestartFormat, DamagedCompactHistoryRecordsStopWithAnError)
{
  write_sheared_pair("compact.restart", "hertz 7e10 0.25 tangential jaeger 0.4");
  EXPECT_EQ(error_reading("compact.restart"), "");
  const std::vector<char> valid = read_file("compact.restart");
  // atom 1's record: its partner's ID (2) after [length, 1, length - 3]
  size_t record = std::string::npos;
  for (size_t at = find_doubles(valid, {ubuf_of(2)}); at != std::string::npos && at >= 24;) {
    double head[3];
    std::memcpy(head, valid.data() + at - 24, 24);
    if (head[1] == 1.0 && head[2] == head[0] - 3.0 && head[0] > 12.0) {
      record = at - 24;
      break;
    }
    const std::vector<char> rest(valid.begin() + at + 1, valid.end());
    const size_t next = find_doubles(rest, {ubuf_of(2)});
    at = next == std::string::npos ? next : at + 1 + next;
  }
  ASSERT_NE(record, std::string::npos) << "atom 1's record [n, 1, n - 3, ID 2, ...] not found";
  double count;
  std::memcpy(&count, valid.data() + record + 4 * sizeof(double), sizeof(double));
  ASSERT_GE(count, 1.0) << "the contact's history holds its vertices";
  const double nan = std::nan("");
  expect_damage_named("compact.restart", record,
                      with_length_and_partners_damaged({
                       {"partners 2", 1, 2.0, "partner ID is"},
                       {"entries' length 1e9", 2, 1e9, "length of the entries is 1000000000"},
                       {"entries' length -5", 2, -5.0, "length of the entries is -5"},
                       {"partner ID 0", 3, ubuf_of(0), "partner ID is 0"},
                       {"partner ID itself", 3, ubuf_of(1), "partner ID is 1"},
                       {"count 1e9", 4, 1e9, "count of history items is 1000000000"},
                       {"count 2^31 - 1", 4, 2147483647.0, "count of history items is 2147483647"},
                       {"count -5", 4, -5.0, "count of history items is -5"},
                       {"count NaN", 4, nan, "count of history items is nan"},
                       {"count 65536", 4, 65536.0, "count of history items is 65536"},
                       {"count 0", 4, 0.0, "number of partners is 1"},
                       {"a fixed value NaN", 6, nan, "fixed part of a contact is nan"},
                       {"a vertex NaN", 12, nan, "history items is nan"}}));
}

// A file whose history store data predate the record of the laws (restart format 7 and before:
// the store's global data were the two totals of ended work): the pair style that reads the
// file knows its laws and goes on with its histories as the file of today does; a pair style
// defined anew after read_restart cannot know which law made them, and drops them with one
// warning that says how many (they were read as the new law's before, whatever it was).
TEST(DeckRestartFormat, HistoriesOfAnUnknownLawAreDroppedWithAWarning)
{
  write_sheared_pair("known.restart", "hooke 2e5 tangential classic 1.6e5 0.4");
  const std::vector<char> valid = read_file("known.restart");
  const double mark = -3.818730112963e+297;    // the store data's mark (held_contacts.h)
  const size_t at = find_doubles(valid, {mark});
  ASSERT_NE(at, std::string::npos) << "no store data in the file";
  int size = 0;
  std::memcpy(&size, valid.data() + at - sizeof(int), sizeof(int));
  // the old block: [size 16][ended work: 2 doubles], the work from the new block's [3], [4]
  std::vector<char> old(valid.begin(), valid.begin() + at - sizeof(int));
  const int old_size = 2 * sizeof(double);
  old.insert(old.end(), reinterpret_cast<const char *>(&old_size),
             reinterpret_cast<const char *>(&old_size) + sizeof(int));
  old.insert(old.end(), valid.begin() + at + 3 * sizeof(double),
             valid.begin() + at + 5 * sizeof(double));
  old.insert(old.end(), valid.begin() + at + size, valid.end());
  write_file("unknown.restart", old);

  auto continued = [](const std::string &file, const std::string &redefine,
                      const std::string &log) {
    deck::Lammps lmp(log);
    lmp.command("read_restart " + file + "\ncomm_modify vel yes\n" + redefine +
                "pair_coeff * * hooke 2e5 tangential classic 1.6e5 0.4\n"
                "fix integrate all nve/sphere\nrun 5");
    auto **f = static_cast<double **>(lammps_extract_atom(lmp.handle(), "f"));
    return std::vector<double>{f[0][0], f[0][1], f[0][2]};
  };
  const std::vector<double> from_valid = continued("known.restart", "", "valid.log");
  // the same pair style: it read the file's laws
  EXPECT_EQ(continued("unknown.restart", "", "same.log"), from_valid);
  EXPECT_THAT(deck::read_text("same.log"), testing::Not(testing::HasSubstr("lost their history")));
  // a new one: the one contact starts anew, with the warning
  const std::vector<double> anew =
      continued("unknown.restart", "pair_style none\npair_style granular/exact\n", "anew.log");
  EXPECT_THAT(deck::read_text("anew.log"),
              testing::HasSubstr("1 stored contacts of types 1 1 lost their history: the restart "
                                 "file does not say which law made them"));
  EXPECT_NE(anew, from_valid);
  // the file of today: the law goes on with the file's histories also in a new pair style
  EXPECT_EQ(continued("known.restart", "pair_style none\npair_style granular/exact\n", "new.log"),
            from_valid);
}
