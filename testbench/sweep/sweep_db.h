// The sweep results database (SQLite, WAL mode; schema in docs/sweeps.md): table `sweeps`, one row
// per sweep, and table `points`, one row per point with its parameters, status, error, wall time,
// seed and the headline metrics of its report. Only the `ndrsim sweep` parent writes, one
// transaction per point, so an interrupt leaves every committed point and nothing half-written.
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sweep_spec.h"

struct sqlite3;

namespace ndr::tb {

/// A headline metric stored as its own column of `points`.
struct metric_column {
    const char* name;
    const char* sql_type;  ///< REAL or INTEGER
    const char* unit;      ///< for axis labels ("ns", "fraction of line rate", ...)
    const char* meaning;
};

/// Every metric column, traffic metrics first, then run metrics (NULL where not applicable).
const std::vector<metric_column>& metric_columns();
/// The column named `name`, or nullptr.
const metric_column* find_metric(const std::string& name);

class sweep_db {
public:
    /// Opens (creating if needed, unless read_only) the database and its schema.
    explicit sweep_db(const std::string& path, bool read_only = false);
    ~sweep_db();
    sweep_db(const sweep_db&) = delete;
    sweep_db& operator=(const sweep_db&) = delete;

    /// Records the sweep and inserts every point not yet in the database as pending, in one
    /// transaction. Points already present keep their status and results.
    void register_sweep(const sweep_spec& s, const std::vector<sweep_point>& points);
    /// point_key -> status for one sweep.
    std::vector<std::pair<std::string, std::string>> statuses(const std::string& sweep_id);
    /// Stores one finished point (result.json of `ndrsim sweep --run-point`), one transaction.
    void record(const std::string& sweep_id, const std::string& point_key,
                const nlohmann::json& result);
    /// Marks a point failed without running it (its configuration does not validate).
    void record_failed(const std::string& sweep_id, const std::string& point_key,
                       const std::string& error);

    /// Runs a query with text parameters; each row is an array of JSON values
    /// (null, integer, real or string), in column order. `columns` receives the names.
    std::vector<nlohmann::json> query(const std::string& sql,
                                      const std::vector<std::string>& binds = {},
                                      std::vector<std::string>* columns = nullptr);
    void exec(const std::string& sql);

private:
    sqlite3* db_ = nullptr;
    std::string path_;
};

}  // namespace ndr::tb
