// UTF-8 well-formedness and byte offsets as lines and columns.
#include <catch2/catch.hpp>

#include "models/text_encoding.h"

using rlsim::first_invalid_utf8;

TEST_CASE("well-formed UTF-8 passes, from ASCII to four-byte sequences") {
  CHECK_FALSE(first_invalid_utf8("").has_value());
  CHECK_FALSE(first_invalid_utf8("plain ascii: 400Gbps").has_value());
  CHECK_FALSE(first_invalid_utf8("µs, ≤ 4 GiB, 計算, 🚀").has_value());
  CHECK_FALSE(first_invalid_utf8("\xF4\x8F\xBF\xBF").has_value());  // U+10FFFF, the last code point
}

TEST_CASE("each kind of ill-formed byte is found at its offset") {
  CHECK(first_invalid_utf8("ab\xFF") == 2u);            // never a UTF-8 byte
  CHECK(first_invalid_utf8("a\x80") == 1u);             // a continuation byte without a lead
  CHECK(first_invalid_utf8("\xC0\xAF") == 0u);          // overlong '/'
  CHECK(first_invalid_utf8("\xE0\x80\xAF") == 0u);      // overlong, three bytes
  CHECK(first_invalid_utf8("x\xED\xA0\x80") == 1u);     // a UTF-16 surrogate
  CHECK(first_invalid_utf8("\xF4\x90\x80\x80") == 0u);  // past U+10FFFF
  CHECK(first_invalid_utf8("ok \xE2\x82") == 3u);       // truncated at the end
  CHECK(first_invalid_utf8("\xE2\x28\xA1") == 0u);      // a bad second byte
}

TEST_CASE("a byte offset becomes a 1-based line and column") {
  const std::string text = "a: 1\nbb: 2\n\nccc";
  CHECK(rlsim::location_at(text, 0, "f").line == 1);
  CHECK(rlsim::location_at(text, 0, "f").column == 1);
  const auto b = rlsim::location_at(text, 6, "f");  // the second 'b'
  CHECK(b.line == 2);
  CHECK(b.column == 2);
  const auto c = rlsim::location_at(text, 12, "f");  // the first 'c', after an empty line
  CHECK(c.line == 4);
  CHECK(c.column == 1);
  CHECK(c.file == "f");
}
