// One YAML document per file: a config or sweep file with a second document (`---`) used to be
// read up to the first one only, silently. Header-only; include only where yaml-cpp is linked.
#pragma once
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <sstream>
#include <string>
#include <vector>

namespace ndr::cfg {

namespace detail {

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

}  // namespace detail

/// Parses `text`; a second document throws YAML::ParserException at its first line (callers turn
/// that into FILE:LINE: ... errors like any syntax error). An empty text is a null node.
/// The documents are counted with yaml-cpp's parser, not YAML::LoadAll: a token the parser does
/// not consume (a ',' outside a flow collection) makes LoadAll return the same empty document
/// forever, filling memory; here it is a syntax error at that token.
inline YAML::Node load_one_document(const std::string& text) {
    std::istringstream in(text);
    YAML::Parser parser(in);
    detail::document_marks docs;
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

}  // namespace ndr::cfg
