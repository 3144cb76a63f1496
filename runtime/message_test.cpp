// Goal: Message is a type-erased immutable payload (runtime/message.hpp): small nothrow-movable
// values are stored inline and copied with the message, larger ones are shared by copies;
// get<T> checks the type; type_name/describe follow MessageTraits (a value's own name hash,
// message_type_hash(), is what type_name_hash reports); copies and moves are well-behaved; a
// mailbox item packs its id and type into one word and keeps both.
// Method: probe payloads that count their copies and expose their address, so storage is
// observable without peeking into the class.
#include <array>
#include <string>

#include <gtest/gtest.h>

#include "runtime/mailbox.hpp"
#include "runtime/message.hpp"

namespace routesim::runtime {
namespace {

/// A small payload that counts copies (fits the 24-byte inline buffer).
struct Small {
    static constexpr std::string_view type_name = "Small";
    int value = 0;
    int* copies = nullptr;
    Small(int v, int* counter) : value(v), copies(counter) {}
    Small(const Small& other) : value(other.value), copies(other.copies) { ++*copies; }
    Small(Small&& other) noexcept = default;
    Small& operator=(const Small&) = delete;
};

/// A large payload (over the inline size) that counts copies.
struct Large {
    static constexpr std::string_view type_name = "Large";
    std::array<std::uint64_t, 8> words{};
    int* copies = nullptr;
    Large(std::uint64_t first, int* counter) : copies(counter) { words[0] = first; }
    Large(const Large& other) : words(other.words), copies(other.copies) { ++*copies; }
    Large(Large&& other) noexcept = default;
};

/// A small payload whose move may throw: it must not be stored inline.
struct ThrowingMove {
    int value = 0;
    ThrowingMove(int v) : value(v) {}
    ThrowingMove(const ThrowingMove&) = default;
    ThrowingMove(ThrowingMove&& other) noexcept(false) : value(other.value) {}
};

/// A payload whose name depends on its value and that describes itself.
struct Dynamic {
    std::string kind;
    std::string_view message_type() const { return kind; }
    std::string describe() const { return "Dynamic<" + kind + ">"; }
};

struct Plain {
    int x = 0;
};

/// A payload that keeps its name's hash with it (as a JSON message's template does). The hash
/// is a marker, not the name's FNV-1a: the test sees whose hash the Message reports.
struct KeepsItsHash {
    std::string_view message_type() const { return "kept"; }
    std::uint64_t message_type_hash() const { return 0x1234; }
};

static_assert(sizeof(Small) <= Message::inline_size);
static_assert(sizeof(Large) > Message::inline_size);

// Inline storage: a copy of the message copies the value into its own buffer.
TEST(Message, SmallValuesAreStoredInline) {
    int copies = 0;
    Message original(Small{7, &copies});
    EXPECT_EQ(copies, 0); // moved in, not copied
    Message copy = original;
    EXPECT_EQ(copies, 1);
    ASSERT_NE(copy.get<Small>(), nullptr);
    EXPECT_EQ(copy.get<Small>()->value, 7);
    EXPECT_NE(copy.get<Small>(), original.get<Small>());
}

// Shared storage: copies of the message share one immutable value.
TEST(Message, LargeValuesAreShared) {
    int copies = 0;
    Message original(Large{42, &copies});
    Message copy = original;
    Message third;
    third = copy;
    EXPECT_EQ(copies, 0);
    ASSERT_NE(third.get<Large>(), nullptr);
    EXPECT_EQ(third.get<Large>()->words[0], 42U);
    EXPECT_EQ(copy.get<Large>(), original.get<Large>());
    EXPECT_EQ(third.get<Large>(), original.get<Large>());
}

// Values whose move may throw are shared, never inline.
TEST(Message, ThrowingMoveIsShared) {
    Message original(ThrowingMove{3});
    Message copy = original;
    EXPECT_EQ(copy.get<ThrowingMove>(), original.get<ThrowingMove>());
    EXPECT_EQ(copy.get<ThrowingMove>()->value, 3);
}

// get<T> and is<T> check the exact type; the empty message is nil.
TEST(Message, GetChecksTheType) {
    int copies = 0;
    const Message message(Small{1, &copies});
    EXPECT_TRUE(message.is<Small>());
    EXPECT_FALSE(message.is<Large>());
    EXPECT_EQ(message.get<Large>(), nullptr);
    EXPECT_EQ(message.get<int>(), nullptr);
    const Message nil = Message();
    EXPECT_TRUE(nil.empty());
    EXPECT_FALSE(nil.is<Small>());
    EXPECT_EQ(nil.get<Small>(), nullptr);
    EXPECT_EQ(nil.type_name(), "nil");
    EXPECT_EQ(nil.describe(), "nil");
    const Message number(5);
    ASSERT_NE(number.get<int>(), nullptr);
    EXPECT_EQ(*number.get<int>(), 5);
}

// type_name: the static name, the value's message_type(), or "value"; describe falls back to
// the name.
TEST(Message, TypeNameAndDescribe) {
    int copies = 0;
    EXPECT_EQ(Message(Small{1, &copies}).type_name(), "Small");
    EXPECT_EQ(Message(Small{1, &copies}).describe(), "Small");
    EXPECT_EQ(Message(Large{1, &copies}).type_name(), "Large");
    const Message dynamic(Dynamic{"order.created"});
    EXPECT_EQ(dynamic.type_name(), "order.created");
    EXPECT_EQ(dynamic.describe(), "Dynamic<order.created>");
    EXPECT_EQ(Message(Plain{}).type_name(), "value");
    EXPECT_EQ(Message(Plain{}).describe(), "value");
    EXPECT_EQ(Message(std::string("text")).type_name(), "value");
}

// type_name_hash: a value-named payload's own hash when it keeps one, else the FNV-1a 64 of
// its name; a fixed name's hash is a constant.
TEST(Message, TypeNameHashIsTheValuesOwnWhenItKeepsOne) {
    EXPECT_EQ(Message(KeepsItsHash{}).type_name_hash(), 0x1234U);
    EXPECT_EQ(Message::type_name_hash_of(KeepsItsHash{}), 0x1234U);
    EXPECT_EQ(Message(Dynamic{"order.created"}).type_name_hash(), sim::fnv1a64("order.created"));
    int copies = 0;
    EXPECT_EQ(Message(Small{1, &copies}).type_name_hash(), sim::fnv1a64("Small"));
    EXPECT_EQ(Message(Large{1, &copies}).type_name_hash(), sim::fnv1a64("Large"));
}

// A mailbox item is 96 bytes: the id (below 2^56) and the type share a word, and each keeps
// its value whatever the other holds.
TEST(MailboxMessage, IdAndTypeShareAWordAndKeepTheirValues) {
    static_assert(sizeof(MailboxMessage) == 96);
    const std::uint64_t largest = MailboxMessage::id_limit - 1;
    MailboxMessage item(PID{}, Ref{}, Message(), largest, Atom(), MailboxType::Inspect);
    EXPECT_EQ(item.id, largest);
    EXPECT_EQ(item.type, MailboxType::Inspect);
    item.set_id(7);
    EXPECT_EQ(item.id, 7U);
    EXPECT_EQ(item.type, MailboxType::Inspect);
    item.type = MailboxType::Regular;
    EXPECT_EQ(item.id, 7U);
    const MailboxMessage copy = item;
    EXPECT_EQ(copy.id, 7U);
    EXPECT_EQ(copy.type, MailboxType::Regular);
    EXPECT_EQ(MailboxMessage().id, 0U);
    EXPECT_EQ(MailboxMessage().type, MailboxType::Regular);
}

// A move transfers the value without copying it and leaves the source nil.
TEST(Message, MoveTransfersAndLeavesSourceEmpty) {
    int copies = 0;
    Message small(Small{9, &copies});
    Message moved(std::move(small));
    EXPECT_EQ(copies, 0);
    EXPECT_EQ(moved.get<Small>()->value, 9);
    EXPECT_TRUE(small.empty()); // NOLINT(bugprone-use-after-move): the contract under test
    Message large(Large{5, &copies});
    Message target(Small{1, &copies});
    target = std::move(large);
    EXPECT_EQ(copies, 0);
    EXPECT_EQ(target.get<Large>()->words[0], 5U);
    EXPECT_TRUE(large.empty()); // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(large.describe(), "nil");
}

// Assignment replaces the payload (and its type); self-assignment keeps it.
TEST(Message, AssignmentReplacesPayload) {
    int copies = 0;
    Message message(Small{1, &copies});
    const Message other(Large{2, &copies});
    message = other;
    EXPECT_TRUE(message.is<Large>());
    EXPECT_FALSE(message.is<Small>());
    Message& alias = message;
    message = alias;
    EXPECT_EQ(message.get<Large>()->words[0], 2U);
}

// A shared value lives as long as any copy of the message does.
TEST(Message, SharedValueOutlivesOriginal) {
    int copies = 0;
    Message copy;
    {
        const Message original(Large{77, &copies});
        copy = original;
    }
    ASSERT_NE(copy.get<Large>(), nullptr);
    EXPECT_EQ(copy.get<Large>()->words[0], 77U);
}

} // namespace
} // namespace routesim::runtime
