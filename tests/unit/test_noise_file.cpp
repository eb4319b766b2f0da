// [noise] kind = "file" (config/noise_file.hpp): the file's format and its errors, and the delays
// it gives each rank (inject/delay_schedule.hpp): line k = the noise window's k-th iteration,
// column r = rank r, lines repeating where the window is longer than the file.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "config/noise_file.hpp"
#include "core/errors.hpp"
#include "inject/delay_schedule.hpp"
#include "workloads/registry.hpp"

namespace desync {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_noise_file(text, "n.txt", "deck.toml:3:1: error: [noise] file = \"n.txt\"");
  } catch (const DeckError& e) {
    return e.what();
  }
  return "";
}

TEST(NoiseFile, BlanksCommasCommentsAndBlankLines) {
  const std::string text = "# measured on node 7\n0.001 0 2e-4\n\n1e-3,\t0.5 ,0  # after\r\n";
  const NoiseTable t = parse_noise_file(text, "n.txt", "x");
  EXPECT_EQ(parse_noise_file("+1e-3 .5\n", "n.txt", "x").at(0, 0), 1e-3);  // a '+' and no leading 0 (scripts write them)
  ASSERT_EQ(t.rows, 2);
  ASSERT_EQ(t.columns, 3);
  EXPECT_EQ(t.at(0, 0), 0.001);
  EXPECT_EQ(t.at(0, 2), 2e-4);
  EXPECT_EQ(t.at(1, 1), 0.5);
  EXPECT_EQ(t.at(1, 2), 0.0);
  EXPECT_EQ(t.text, text);  // the bytes as read, for /config/noise_file
}

TEST(NoiseFile, ErrorsNameFileLineColumnAndWhatIsAllowed) {
  // Where every deck error starts (the deck key), then the file's line and column.
  EXPECT_EQ(error_of("0 0\n0 abc\n"),
            "deck.toml:3:1: error: [noise] file = \"n.txt\": n.txt:2:3: 'abc' is not a number of seconds; allowed: "
            "numbers 0 .. 10 separated by blanks or commas, one line per iteration, one column per rank ('#' starts a "
            "comment)");
  EXPECT_NE(error_of("0 -1e-3\n").find("deck.toml:3:1: error: [noise] file = \"n.txt\": n.txt:1:3: -1e-3 s is out of "
                                       "range; allowed: 0 .. 10"),
            std::string::npos);
  EXPECT_NE(error_of("1e400\n").find("1e400 s is out of range"), std::string::npos);
  EXPECT_NE(error_of("0x10\n").find("'0x10' is not a number"), std::string::npos);
  EXPECT_NE(error_of(std::string("1e-3 a\0b\n", 9)).find("'a\\x00b' is not a number"), std::string::npos);
  EXPECT_NE(error_of("11\n").find("11 s is out of range"), std::string::npos);
  EXPECT_NE(error_of("nan\n").find("out of range"), std::string::npos);
  EXPECT_NE(error_of("inf\n").find("out of range"), std::string::npos);
  EXPECT_NE(error_of("# header\n1e-3 2e-3\n1e-3\n").find("n.txt:3:1: 1 number(s) on this line, line 2 (the first with "
                                                       "numbers) has 2"),
            std::string::npos);
  EXPECT_NE(error_of("# only a comment\n\n").find("[noise] file = \"n.txt\": n.txt: no numbers"), std::string::npos);
  EXPECT_NE(error_of("1e-3x\n").find("'1e-3x' is not a number"), std::string::npos);
}

TEST(NoiseFile, PathIsRelativeToTheDeck) {
  EXPECT_EQ(noise_file_path("inputs/triad/a.toml", "noise/n.txt"), "inputs/triad/noise/n.txt");
  EXPECT_EQ(noise_file_path("a.toml", "n.txt"), "n.txt");
  EXPECT_EQ(noise_file_path("inputs/a.toml", "/abs/n.txt"), "/abs/n.txt");
}

Config from_file(const std::string& extra, const std::string& table_text) {
  Config c = load_deck("[run]\niterations = 6\nwarmup = 2\n[noise]\nkind = \"file\"\nfile = \"n.txt\"\n" + extra +
                           "[[inject]]\nrank = 1\niteration = 0\nduration = 0.5\n",
                       "d.toml", {});
  c.noise.table = std::make_shared<const NoiseTable>(parse_noise_file(table_text, "n.txt", "d.toml:6:1"));
  return c;
}

TEST(NoiseFile, LineKIsTheWindowsIterationKColumnRTheRank) {
  // 8 iterations (2 warm-up), 3 lines: they repeat from the first warm-up iteration on.
  const Config c = from_file("", "1e-3 2e-3\n3e-3 4e-3\n5e-3 6e-3\n");
  const auto d0 = delay_schedule(c, 0), d1 = delay_schedule(c, 1);
  ASSERT_EQ(d0.size(), 8u);
  const double col0[] = {1e-3, 3e-3, 5e-3, 1e-3, 3e-3, 5e-3, 1e-3, 3e-3};
  const double col1[] = {2e-3, 4e-3, 6e-3 + 0.5, 2e-3, 4e-3, 6e-3, 2e-3, 4e-3};  // injection at deck iteration 0
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(d0[i], col0[i]) << i;
    EXPECT_EQ(d1[i], col1[i]) << i;
  }
  ASSERT_EQ(noise_file_warnings(c).size(), 1u);
  EXPECT_NE(noise_file_warnings(c)[0].find("has 3 line(s) for 8 iterations with noise: the lines repeat"), std::string::npos);
  EXPECT_TRUE(noise_file_warnings(from_file("", "0 0\n0 0\n0 0\n0 0\n0 0\n0 0\n0 0\n0 0\n")).empty());
}

TEST(NoiseFile, WindowStartsAtLineOneAndRanksMask) {
  const Config c = from_file("ranks = [0]\niterations = [1, 3]\n", "1e-3 2e-3\n3e-3 4e-3\n5e-3 6e-3\n");
  const auto d0 = delay_schedule(c, 0), d1 = delay_schedule(c, 1);
  for (std::size_t i = 0; i < 8; ++i) {
    const double want = i == 3 ? 1e-3 : i == 4 ? 3e-3 : 0.0;  // deck iterations 1 and 2 are rows 3 and 4
    EXPECT_EQ(d0[i], want) << i;
    EXPECT_EQ(d1[i], i == 2 ? 0.5 : 0.0) << i;  // not a noisy rank: its injection only
  }
  EXPECT_TRUE(noise_file_warnings(c).empty());  // 2 noisy iterations, 3 lines
}

TEST(NoiseFile, ColumnsMustMatchTheRanks) {
  const Config c = from_file("", "1e-3 2e-3 3e-3\n");
  EXPECT_NO_THROW(validate_for_ranks(c, 3));
  try {
    validate_for_ranks(c, 2);
    FAIL() << "2 ranks against 3 columns accepted";
  } catch (const DeckError& e) {
    EXPECT_STREQ(e.what(), "d.toml:6:8: error: [noise] file = \"n.txt\" has 3 column(s), one per rank; the run has 2 "
                           "rank(s) (a line of the file is an iteration, a column a rank)");
  }
}

TEST(NoiseFile, DeckKeys) {
  const auto deck_error = [](const std::string& noise) {
    try {
      load_deck("[run]\niterations = 6\n[noise]\n" + noise, "d.toml", {});
    } catch (const DeckError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(deck_error("kind = \"file\"\n").find("d.toml:3:1: error: [noise] file: kind = \"file\" needs the noise file"),
            std::string::npos);
  EXPECT_NE(deck_error("kind = \"file\"\nfile = \"\"\n").find("give the path of the noise file"), std::string::npos);
  // mean, seed and a file where they do not act: said, not refused (a sweep switches kind by --set).
  const Config c = load_deck("[run]\niterations = 6\n[noise]\nkind = \"file\"\nfile = \"n.txt\"\nmean = 1e-3\n", "d.toml", {});
  ASSERT_EQ(c.deck_warnings.size(), 1u);
  EXPECT_NE(c.deck_warnings[0].find("[noise] mean = 0.001 has no effect: kind = \"file\" takes every delay from the file"),
            std::string::npos);
  const Config u = load_deck("[run]\niterations = 6\n[noise]\nkind = \"uniform\"\nmean = 1e-3\nfile = \"n.txt\"\n", "d.toml", {});
  ASSERT_EQ(u.deck_warnings.size(), 1u);
  EXPECT_NE(u.deck_warnings[0].find("has no effect: only kind = \"file\" reads a file"), std::string::npos);
  EXPECT_EQ(u.noise.table, nullptr);
}

}  // namespace
}  // namespace desync
