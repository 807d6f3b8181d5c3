#include "config/yaml_document.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>
#include <vector>

#include "config/config_error.h"
#include "golden/utf8_bom.h"

namespace ndr::cfg {

namespace {

/// Records where each document starts and where its root node is (the parser's other events
/// are ignored).
class document_marks : public YAML::EventHandler {
public:
    std::vector<YAML::Mark> starts;  ///< per document: its first token
    std::vector<YAML::Mark> roots;   ///< per document: its root node (as YAML::Node::Mark())

    void OnDocumentStart(const YAML::Mark& mark) override {
        starts.push_back(mark);
        roots.push_back(mark);
        depth_ = 0;
    }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
    void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  const std::string&) override {
        node(mark);
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {
        node(mark);
        ++depth_;
    }
    void OnSequenceEnd() override { --depth_; }
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override {
        node(mark);
        ++depth_;
    }
    void OnMapEnd() override { --depth_; }

private:
    void node(const YAML::Mark& mark) {
        if (depth_ == 0 && !roots.empty()) roots.back() = mark;
    }
    int depth_ = 0;
};

/// Parses `text` as one document (a null node if it holds none); a second document throws
/// YAML::ParserException at its root. The documents are counted with yaml-cpp's parser, not
/// YAML::LoadAll: a token the parser does not consume (a ',' outside a flow collection) makes
/// LoadAll return the same empty document forever, filling memory; here it is a syntax error at
/// that token (found by tests/fuzz).
YAML::Node parse_one(const std::string& text) {
    std::istringstream in(text);
    YAML::Parser parser(in);
    document_marks docs;
    // Three documents at most: the second one is the error, a third starting where it did means
    // the parser is stuck.
    while (docs.starts.size() < 3 && parser.HandleNextDocument(docs)) {
        const std::size_t n = docs.starts.size();
        if (n >= 2 && docs.starts[n - 1].pos == docs.starts[n - 2].pos) {
            const YAML::Mark at = docs.starts[n - 1];
            const std::size_t pos = at.pos >= 0 ? static_cast<std::size_t>(at.pos) : text.size();
            throw YAML::ParserException(at, pos < text.size()
                                                ? "unexpected '" + text.substr(pos, 1) + "'"
                                                : std::string("unexpected end of the document"));
        }
    }
    if (docs.starts.size() > 1) {
        throw YAML::ParserException(docs.roots[1],
                                    "a second YAML document ('---'): give one document per file");
    }
    return docs.starts.empty() ? YAML::Node() : YAML::Load(text);
}

int line_of(const YAML::Mark& m) {
    return m.line >= 0 ? m.line + 1 : 0;
}

/// Checks of the parsed tree against its source text.
class document_check {
public:
    document_check(const std::string& text, const std::string& path) : text_(text), path_(path) {}

    void node(const YAML::Node& n, const std::string& where) {
        const YAML::Mark m = n.Mark();
        // An alias is the anchored node again (same mark): each node is checked once, so a
        // chain of aliases cannot make this walk exponential. (A block map starts where its
        // first key does: the kind tells them apart.)
        if (m.pos >= 0 && !seen_.emplace(m.pos, static_cast<int>(n.Type())).second) return;
        if (n.IsScalar()) {
            quoted(m, where);
        } else if (n.IsSequence()) {
            std::size_t i = 0;
            for (const YAML::Node& e : n) node(e, where + "[" + std::to_string(i++) + "]");
        } else if (n.IsMap()) {
            std::map<std::string, int> keys;  // key -> line
            for (auto it = n.begin(); it != n.end(); ++it) {
                const YAML::Node k = it->first;  // a copy: `it->` is a temporary
                const std::string name = k.IsScalar() ? k.Scalar() : std::string();
                const std::string path = where.empty() ? name : where + "." + name;
                node(k, path);
                if (k.IsScalar()) {
                    const int line = line_of(k.Mark());
                    const auto [first, fresh] = keys.emplace(name, line);
                    if (!fresh) {
                        throw config_error(config_source::file(path_, line), path,
                                           "duplicate key (already set on line " +
                                               std::to_string(first->second) + ")");
                    }
                }
                node(it->second, path);
            }
        }
    }

private:
    /// A quoted scalar must close before the end of the file: yaml-cpp reads an unclosed one
    /// to the end, folding the lines in.
    void quoted(const YAML::Mark& m, const std::string& where) const {
        if (m.pos < 0) return;
        std::size_t p = static_cast<std::size_t>(m.pos);
        // Skip a tag (`!!str`) and an anchor (`&a`) in front of the value.
        while (p < text_.size() && (text_[p] == '!' || text_[p] == '&')) {
            while (p < text_.size() && text_[p] != ' ' && text_[p] != '\t' && text_[p] != '\n') ++p;
            while (p < text_.size() &&
                   (text_[p] == ' ' || text_[p] == '\t' || text_[p] == '\n' || text_[p] == '\r'))
                ++p;
        }
        if (p >= text_.size() || (text_[p] != '"' && text_[p] != '\'')) return;
        const char q = text_[p];
        for (std::size_t i = p + 1; i < text_.size(); ++i) {
            if (q == '"' && text_[i] == '\\') {
                ++i;  // an escaped character, \" included
            } else if (text_[i] == q) {
                if (q == '\'' && i + 1 < text_.size() && text_[i + 1] == '\'') {
                    ++i;  // '' inside single quotes
                } else {
                    return;
                }
            }
        }
        const std::size_t eol = text_.find_first_of("\r\n", p);
        std::string start = text_.substr(p, eol == std::string::npos ? eol : eol - p);
        if (start.size() > 40) start = start.substr(0, 37) + "...";
        throw config_error(config_source::file(path_, line_of(m)), where,
                           std::string("unclosed quote: ") + start + " has no closing " + q);
    }

    const std::string& text_;
    const std::string& path_;
    std::set<std::pair<int, int>> seen_;  ///< (position, node type)
};

}  // namespace

std::string read_yaml_file(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw config_error(config_source::file(path), "",
                           "cannot read the file: it is a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw config_error(config_source::file(path), "",
                           std::string("cannot read the file: ") + std::strerror(errno));
    }
    std::string text;
    std::array<char, 65536> buf{};
    while (in.read(buf.data(), buf.size()) || in.gcount() > 0) {
        text.append(buf.data(), static_cast<std::size_t>(in.gcount()));
        if (text.size() > MAX_YAML_FILE_BYTES) {
            throw config_error(config_source::file(path), "",
                               "larger than 16 MiB (a config or sweep file is a few KiB)");
        }
    }
    if (in.bad()) throw config_error(config_source::file(path), "", "cannot read the file");
    return text;
}

YAML::Node load_one_document(std::string text, const std::string& path) {
    golden::strip_utf8_bom(text);
    if (const int line = golden::misplaced_bom_line(text); line != 0) {
        throw config_error(config_source::file(path, line), "",
                           std::string(golden::misplaced_bom_reason));
    }
    YAML::Node root;
    try {
        root = parse_one(text);
    } catch (const YAML::DeepRecursion& e) {  // its message is yaml-cpp 0.7's "bad file"
        throw config_error(
            config_source::file(path, line_of(e.mark)), "",
            "YAML syntax error: nested deeper than " + std::to_string(e.depth()) + " levels");
    } catch (const YAML::Exception& e) {
        throw config_error(config_source::file(path, line_of(e.mark)), "",
                           "YAML syntax error: " + e.msg);
    }
    if (!root) return YAML::Node();
    document_check(text, path).node(root, "");
    return root;
}

}  // namespace ndr::cfg
