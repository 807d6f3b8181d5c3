#include "sweep_runner.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "sweep_point.h"

namespace ndr::tb {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

volatile std::sig_atomic_t g_signal = 0;

extern "C" void on_stop_signal(int sig) {
    g_signal = sig;
}

/// Installs the stop handlers for the lifetime of the object; restores the old ones after.
class stop_signals {
public:
    stop_signals() {
        struct sigaction sa {};
        sa.sa_handler = on_stop_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = 0;  // no SA_RESTART: sleeps and waits return early
        sigaction(SIGINT, &sa, &old_int_);
        sigaction(SIGTERM, &sa, &old_term_);
        g_signal = 0;
    }
    ~stop_signals() {
        sigaction(SIGINT, &old_int_, nullptr);
        sigaction(SIGTERM, &old_term_, nullptr);
    }
    stop_signals(const stop_signals&) = delete;
    stop_signals& operator=(const stop_signals&) = delete;

private:
    struct sigaction old_int_ {};
    struct sigaction old_term_ {};
};

std::string fmt_duration(double s) {
    if (s < 0) return "?";
    const auto t = static_cast<long>(s + 0.5);
    if (t >= 3600) return fmt::format("{}h{:02}m", t / 3600, (t / 60) % 60);
    if (t >= 60) return fmt::format("{}m{:02}s", t / 60, t % 60);
    return fmt::format("{}s", t);
}

std::string last_log_line(const std::string& dir) {
    std::ifstream in(fs::path(dir) / "log.txt");
    std::string line;
    std::string last;
    while (std::getline(in, line)) {
        if (!line.empty()) last = line;
    }
    return last;
}

std::string describe_status(int status) {
    if (WIFSIGNALED(status)) return fmt::format("killed by signal {}", WTERMSIG(status));
    return fmt::format("exit status {}", WEXITSTATUS(status));
}

struct child {
    const sweep_point* point = nullptr;
    std::string dir;
    std::chrono::steady_clock::time_point start;
};

}  // namespace

std::string self_exe() {
    std::error_code ec;
    const fs::path p = fs::read_symlink("/proc/self/exe", ec);
    if (ec) throw std::runtime_error("cannot find the ndrsim executable (/proc/self/exe)");
    return p.string();
}

sweep_run_stats run_local(const sweep_spec& s, const std::vector<const sweep_point*>& todo,
                          const std::string& work_dir, unsigned jobs, sweep_db& db,
                          bool progress_bar) {
    const std::string exe = self_exe();
    const stop_signals guard;
    sweep_run_stats st;
    std::map<pid_t, child> running;
    std::size_t next = 0;
    const auto t0 = std::chrono::steady_clock::now();
    const std::size_t total = todo.size();
    const auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    const auto draw_bar = [&] {
        if (!progress_bar) return;
        const std::size_t fin = st.done + st.failed;
        constexpr std::size_t width = 30;
        const std::size_t fill = total ? fin * width / total : width;
        const double e = elapsed();
        const double eta =
            fin ? e / static_cast<double>(fin) * static_cast<double>(total - fin) : -1.0;
        fmt::print("\r\033[K[{}{}] {}/{} done {} failed {} running {} | {} elapsed, ETA {}",
                   std::string(fill, '#'), std::string(width - fill, '.'), fin, total, st.done,
                   st.failed, running.size(), fmt_duration(e), fin ? fmt_duration(eta) : "?");
        std::fflush(stdout);
    };
    const auto finish = [&](pid_t pid, int status, bool stopping) {
        const child c = running.at(pid);
        running.erase(pid);
        json r = read_result(c.dir);
        if (stopping && (r.is_null() || r.value("status", "") != "done")) return;  // stays pending
        if (r.is_null()) {
            const std::string last = last_log_line(c.dir);
            r = json{
                {"status", "failed"},
                {"error", fmt::format("point process {} without a result{}",
                                      describe_status(status), last.empty() ? "" : ": " + last)},
                {"wall_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - c.start)
                               .count()}};
        }
        db.record(s.name, c.point->key, r);
        const bool ok = r.value("status", "") == "done";
        ++(ok ? st.done : st.failed);
        if (progress_bar) {
            if (!ok) {
                fmt::print("\r\033[Kpoint {} {} failed: {}\n", c.point->index,
                           c.point->params.dump(), r.value("error", ""));
            }
            draw_bar();
        } else {
            fmt::print("[{}/{}] {} point {} {} {} {:.2f} s{}\n", st.done + st.failed, total,
                       ok ? "done  " : "FAILED", c.point->index, c.point->key,
                       c.point->params.dump(), r.value("wall_s", 0.0),
                       ok ? "" : ": " + r.value("error", std::string()));
            std::fflush(stdout);
        }
    };
    draw_bar();
    while ((next < todo.size() && g_signal == 0) || !running.empty()) {
        while (g_signal == 0 && next < todo.size() && running.size() < jobs) {
            const sweep_point* p = todo[next++];
            child c{p, point_dir(work_dir, p->key), std::chrono::steady_clock::now()};
            prepare_point_dir(c.dir, s, *p);
            const std::string log = (fs::path(c.dir) / "log.txt").string();
            std::fflush(stdout);
            const pid_t pid = ::fork();
            if (pid < 0) throw std::runtime_error("fork failed");
            if (pid == 0) {
                ::setpgid(0, 0);  // its own group: a terminal's Ctrl-C reaches the parent only
                const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
                if (fd >= 0) {
                    ::dup2(fd, 1);
                    ::dup2(fd, 2);
                    ::close(fd);
                }
                std::string a0 = "ndrsim";
                std::string a1 = "sweep";
                std::string a2 = "--run-point";
                std::string a3 = c.dir;
                char* argv[] = {a0.data(), a1.data(), a2.data(), a3.data(), nullptr};
                ::execv(exe.c_str(), argv);
                std::_Exit(127);
            }
            ::setpgid(pid, pid);
            running[pid] = c;
            ++st.launched;
        }
        if (g_signal != 0) break;
        int status = 0;
        const pid_t pid = ::waitpid(-1, &status, WNOHANG);
        if (pid > 0 && running.count(pid)) {
            finish(pid, status, false);
        } else {
            ::usleep(50000);  // returns early on a signal
            draw_bar();
        }
    }
    if (g_signal != 0) {
        st.interrupted = true;
        st.signal = g_signal;
        for (const auto& [pid, c] : running) ::kill(-pid, SIGTERM);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (!running.empty()) {
            int status = 0;
            const pid_t pid = ::waitpid(-1, &status, WNOHANG);
            if (pid > 0 && running.count(pid)) {
                finish(pid, status, true);
            } else if (pid < 0) {
                break;
            } else {
                if (std::chrono::steady_clock::now() > deadline) {
                    for (const auto& [p, c] : running) ::kill(-p, SIGKILL);
                }
                ::usleep(20000);
            }
        }
    }
    if (progress_bar) {
        draw_bar();
        fmt::print("\n");
    }
    return st;
}

}  // namespace ndr::tb
