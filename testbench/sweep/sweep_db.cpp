#include "sweep_db.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "config/config_error.h"

namespace ndr::tb {

using nlohmann::json;

namespace {

struct stmt_closer {
    void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using stmt_ptr = std::unique_ptr<sqlite3_stmt, stmt_closer>;

std::string now_utc() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    ::gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace

const std::vector<metric_column>& metric_columns() {
    static const std::vector<metric_column> cols = {
        {"offered_load", "REAL", "fraction of line rate", "traffic.offered_load"},
        {"accepted_load", "REAL", "fraction of line rate", "traffic.accepted_load"},
        {"lat_mean_ns", "REAL", "ns", "latency_ns.mean"},
        {"lat_p50_ns", "REAL", "ns", "latency_ns.p50"},
        {"lat_p99_ns", "REAL", "ns", "latency_ns.p99"},
        {"lat_p999_ns", "REAL", "ns", "latency_ns.p999"},
        {"lat_max_ns", "REAL", "ns", "latency_ns.max"},
        {"lat_samples", "INTEGER", "packets", "latency_ns.samples"},
        {"lat_complete", "INTEGER", "0/1", "latency_ns.complete"},
        {"credit_stall_cycles", "INTEGER", "cycles", "credit_stall_cycles.total"},
        {"jain_index", "REAL", "0..1", "fairness.jain_index_receivers"},
        {"hot_accepted_load", "REAL", "fraction of line rate",
         "ports[traffic.hot_port].accepted_load (hotspot, incast)"},
        {"others_accepted_load", "REAL", "fraction of line rate",
         "mean accepted_load of the other ports: victim traffic (hotspot, incast)"},
        {"vl0_share", "REAL", "fraction", "vls[0].share"},
        {"vl1_share", "REAL", "fraction", "vls[1].share (NULL with one VL)"},
        {"span_us", "REAL", "us", "run: totals.span_ns / 1000"},
        {"collectives", "INTEGER", "collectives", "run: totals.collectives"},
        {"bytes", "INTEGER", "B", "run: totals.bytes"},
        {"mean_algbw_GBps", "REAL", "GB/s", "run: mean algbw_GBps over collectives"},
        {"mean_busbw_GBps", "REAL", "GB/s", "run: mean busbw_GBps over collectives"},
        {"retransmits", "INTEGER", "packets", "run: hca.retransmitted_packets"},
        {"sim_cycles", "INTEGER", "cycles", "sim.cycles"},
    };
    return cols;
}

const metric_column* find_metric(const std::string& name) {
    for (const metric_column& m : metric_columns()) {
        if (name == m.name) return &m;
    }
    return nullptr;
}

sweep_db::sweep_db(const std::string& path, bool read_only) : path_(path) {
    {
        // An existing file that is not an SQLite database (a text file given as --db by
        // mistake) is never overwritten.
        std::ifstream in(path, std::ios::binary);
        char head[16] = {};
        if (in && in.read(head, sizeof head).gcount() > 0 &&
            std::string(head, static_cast<std::size_t>(in.gcount())) !=
                std::string("SQLite format 3\0", 16)) {
            throw cfg::config_error(fmt::format(
                "--db: '{}' exists and is not an SQLite database; not touching it", path));
        }
    }
    if (!read_only) {
        const std::filesystem::path parent = std::filesystem::path(path).parent_path();
        std::error_code ec;
        if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    }
    const int flags =
        read_only ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
        const std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw std::runtime_error(fmt::format("cannot open database '{}': {}", path, msg));
    }
    sqlite3_busy_timeout(db_, 10000);
    if (read_only) return;
    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=FULL");
    std::string cols;
    for (const metric_column& m : metric_columns())
        cols += fmt::format("  {} {},\n", m.name, m.sql_type);
    exec("BEGIN IMMEDIATE");
    exec(
        "CREATE TABLE IF NOT EXISTS sweeps (\n"
        "  sweep_id TEXT PRIMARY KEY,\n"
        "  kind TEXT NOT NULL,\n"
        "  spec_path TEXT,\n"
        "  spec TEXT,\n"
        "  axes TEXT,\n"
        "  points INTEGER,\n"
        "  created_at TEXT,\n"
        "  updated_at TEXT)");
    exec(
        "CREATE TABLE IF NOT EXISTS points (\n"
        "  sweep_id TEXT NOT NULL,\n"
        "  point_key TEXT NOT NULL,\n"
        "  idx INTEGER,\n"
        "  params TEXT NOT NULL,\n"
        "  seed INTEGER,\n"
        "  repeat INTEGER,\n"
        "  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','done','failed')),\n"
        "  error TEXT,\n"
        "  wall_s REAL,\n"
        "  finished_at TEXT,\n" +
        cols +
        "  metrics TEXT,\n"
        "  config TEXT,\n"
        "  PRIMARY KEY (sweep_id, point_key))");
    exec("COMMIT");
}

sweep_db::~sweep_db() {
    sqlite3_close(db_);
}

void sweep_db::exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        const std::string msg = err ? err : "unknown error";
        sqlite3_free(err);
        if (sql.rfind("BEGIN", 0) != 0 && sql.rfind("COMMIT", 0) != 0) {
            sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        }
        throw std::runtime_error(fmt::format("database '{}': {}", path_, msg));
    }
}

std::vector<json> sweep_db::query(const std::string& sql, const std::vector<std::string>& binds,
                                  std::vector<std::string>* columns) {
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &raw, nullptr) != SQLITE_OK) {
        throw std::runtime_error(fmt::format("database '{}': {}", path_, sqlite3_errmsg(db_)));
    }
    stmt_ptr st(raw);
    for (std::size_t i = 0; i < binds.size(); ++i) {
        sqlite3_bind_text(raw, static_cast<int>(i + 1), binds[i].c_str(), -1, SQLITE_TRANSIENT);
    }
    const int n = sqlite3_column_count(raw);
    if (columns) {
        columns->clear();
        for (int c = 0; c < n; ++c) columns->emplace_back(sqlite3_column_name(raw, c));
    }
    std::vector<json> rows;
    for (;;) {
        const int rc = sqlite3_step(raw);
        if (rc == SQLITE_DONE) break;
        if (rc != SQLITE_ROW) {
            throw std::runtime_error(fmt::format("database '{}': {}", path_, sqlite3_errmsg(db_)));
        }
        json row = json::array();
        for (int c = 0; c < n; ++c) {
            switch (sqlite3_column_type(raw, c)) {
                case SQLITE_INTEGER:
                    row.push_back(sqlite3_column_int64(raw, c));
                    break;
                case SQLITE_FLOAT:
                    row.push_back(sqlite3_column_double(raw, c));
                    break;
                case SQLITE_NULL:
                    row.push_back(nullptr);
                    break;
                default:
                    row.push_back(
                        std::string(reinterpret_cast<const char*>(sqlite3_column_text(raw, c)),
                                    static_cast<std::size_t>(sqlite3_column_bytes(raw, c))));
            }
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

void sweep_db::register_sweep(const sweep_spec& s, const std::vector<sweep_point>& points) {
    json axes = json::array();
    for (const sweep_axis& a : s.axes) {
        for (const std::string& k : a.keys) axes.push_back(k);
    }
    if (s.repeats > 1) axes.push_back("repeat");
    exec("BEGIN IMMEDIATE");
    try {
        const std::string now = now_utc();
        query(
            "INSERT INTO sweeps (sweep_id, kind, spec_path, spec, axes, points, created_at, "
            "updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7) ON CONFLICT (sweep_id) DO "
            "UPDATE SET kind = ?2, spec_path = ?3, spec = ?4, axes = ?5, points = ?6, "
            "updated_at = ?7",
            {s.name, s.kind, s.path, s.text, axes.dump(), std::to_string(points.size()), now});
        for (const sweep_point& p : points) {
            query(
                "INSERT INTO points (sweep_id, point_key, idx, params, seed, repeat, status, "
                "config) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'pending', ?7) ON CONFLICT (sweep_id, "
                "point_key) DO UPDATE SET idx = ?3, params = ?4",
                {s.name, p.key, std::to_string(p.index), p.params.dump(), std::to_string(p.seed),
                 std::to_string(p.repeat), p.config.is_null() ? "null" : p.config.dump()});
        }
        exec("COMMIT");
    } catch (...) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

std::vector<std::pair<std::string, std::string>> sweep_db::statuses(const std::string& sweep_id) {
    std::vector<std::pair<std::string, std::string>> v;
    for (const json& r : query(
             "SELECT point_key, status FROM points WHERE sweep_id = ?1 ORDER BY idx", {sweep_id})) {
        v.emplace_back(r[0].get<std::string>(), r[1].get<std::string>());
    }
    return v;
}

void sweep_db::record(const std::string& sweep_id, const std::string& point_key,
                      const json& result) {
    const json& m = result.contains("metrics") ? result["metrics"] : json::object();
    // Every value is bound as text; SQLite converts it by the column's type affinity, and
    // NULLIF turns an empty text (no error, no wall time, metric absent) into NULL.
    std::string sets =
        "status = ?3, error = NULLIF(?4, ''), wall_s = NULLIF(?5, ''), "
        "finished_at = ?6, metrics = ?7";
    std::vector<std::string> binds = {
        sweep_id,
        point_key,
        result.value("status", "failed"),
        result.value("error", ""),
        result.contains("wall_s") ? fmt::format("{:.6f}", result["wall_s"].get<double>()) : "",
        now_utc(),
        m.dump()};
    int n = 8;
    for (const metric_column& c : metric_columns()) {
        sets += fmt::format(", {} = NULLIF(?{}, '')", c.name, n++);
        if (m.contains(c.name) && !m[c.name].is_null()) {
            const json& v = m[c.name];
            binds.push_back(v.is_boolean()        ? (v.get<bool>() ? "1" : "0")
                            : v.is_number_float() ? fmt::format("{:.17g}", v.get<double>())
                                                  : v.dump());
        } else {
            binds.emplace_back();
        }
    }
    const std::string sql = "UPDATE points SET " + sets + " WHERE sweep_id = ?1 AND point_key = ?2";
    exec("BEGIN IMMEDIATE");
    try {
        query(sql, binds);
        exec("COMMIT");
    } catch (...) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

void sweep_db::record_failed(const std::string& sweep_id, const std::string& point_key,
                             const std::string& error) {
    record(sweep_id, point_key, json{{"status", "failed"}, {"error", error}});
}

}  // namespace ndr::tb
