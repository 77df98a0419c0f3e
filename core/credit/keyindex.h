#pragma once

// A reusable open-addressing hash index for grouping by key (the CreditBatch's interned state, action and pair keys).
// It maps each distinct key to a dense id 0, 1, 2, ... in order of first insertion. reset() keeps the
// memory, so one index serves every group of a batch without a heap allocation per turn.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string_view>
#include <vector>

namespace creditlab::credit {

/// splitmix64's finaliser: a cheap, well-mixed hash of a 64-bit key (e.g. a packed pair of ids).
struct MixHash {
    std::size_t operator()(std::uint64_t x) const noexcept
    {
        x ^= x >> 30;
        x *= 0xbf58476d1ce4e5b9ULL;
        x ^= x >> 27;
        x *= 0x94d049bb133111ebULL;
        x ^= x >> 31;
        return static_cast<std::size_t>(x);
    }
};

/// A fast hash of a string, 8 bytes at a time, finished with MixHash (wyhash's way with the tail). For the
/// state and action keys a CreditBatch interns: short strings, one hash per turn.
struct StringHash {
    std::size_t operator()(std::string_view s) const noexcept
    {
        const char* p = s.data();
        const std::size_t n = s.size();
        std::uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
        const auto mix = [&h](std::uint64_t w) {
            h = (h ^ w) * 0xff51afd7ed558ccdull;
            h ^= h >> 32;
        };
        if (n >= 8) {
            std::size_t i = 0;
            for (; i + 8 <= n; i += 8)
                mix(load64(p + i));
            if (i < n)
                mix(load64(p + n - 8)); // the last bytes, overlapping the previous word
        } else if (n >= 4) {
            mix(load32(p) | (load32(p + n - 4) << 32));
        } else if (n > 0) {
            mix(static_cast<unsigned char>(p[0]) | (std::uint64_t(static_cast<unsigned char>(p[n / 2])) << 8)
                | (std::uint64_t(static_cast<unsigned char>(p[n - 1])) << 16));
        }
        return MixHash {}(h);
    }

private:
    static std::uint64_t load64(const char* p)
    {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        return w;
    }
    static std::uint64_t load32(const char* p)
    {
        std::uint32_t w;
        std::memcpy(&w, p, 4);
        return w;
    }
};

/// Dense ids for keys; `Key` must be cheap to copy and compare (std::string_view, std::uint64_t).
/// A string_view key must stay valid until the next reset(). Not thread-safe; one per compute() call.
template <typename Key, typename Hash = std::hash<Key>> class KeyIndex {
public:
    static constexpr std::uint32_t kNone = 0xffffffffu;

    /// Forgets every key and prepares for up to `expected` distinct keys (more still work).
    void reset(std::size_t expected)
    {
        const std::size_t capacity = std::bit_ceil(std::max<std::size_t>(16, expected * 2));
        m_slots.assign(capacity, Slot {});
        m_mask = capacity - 1;
        m_keys.clear();
    }

    /// The id of `key`, inserting it with the next id when new; `inserted` tells which.
    std::uint32_t intern(Key key, bool& inserted)
    {
        if ((m_keys.size() + 1) * 2 > m_slots.size())
            grow();
        const std::size_t h = Hash {}(key);
        for (std::size_t i = h & m_mask;; i = (i + 1) & m_mask) {
            Slot& s = m_slots[i];
            if (s.id == kNone) {
                s = Slot { h, static_cast<std::uint32_t>(m_keys.size()) };
                m_keys.push_back(key);
                inserted = true;
                return s.id;
            }
            if (s.hash == h && m_keys[s.id] == key) {
                inserted = false;
                return s.id;
            }
        }
    }
    std::uint32_t intern(Key key)
    {
        bool inserted = false;
        return intern(key, inserted);
    }

    /// The number of distinct keys since reset().
    std::size_t size() const { return m_keys.size(); }
    /// The key with id `id`.
    Key key(std::uint32_t id) const { return m_keys[id]; }

private:
    struct Slot {
        std::size_t hash = 0;
        std::uint32_t id = kNone;
    };

    void grow()
    {
        std::vector<Slot> old;
        old.swap(m_slots);
        m_slots.assign(old.size() * 2, Slot {});
        m_mask = m_slots.size() - 1;
        for (const Slot& s : old) {
            if (s.id == kNone)
                continue;
            std::size_t i = s.hash & m_mask;
            while (m_slots[i].id != kNone)
                i = (i + 1) & m_mask;
            m_slots[i] = s;
        }
    }

    std::vector<Slot> m_slots = std::vector<Slot>(16);
    std::size_t m_mask = 15;
    std::vector<Key> m_keys;
};

} // namespace creditlab::credit
