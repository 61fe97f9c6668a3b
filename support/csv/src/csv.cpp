// csv.cpp: the CSV reader and field quoting (csv.h).
#include "collectivize/csv.h"

namespace cz::csv {

std::string CsvError::describe() const {
  return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message;
}

bool splitLine(const std::string &line, size_t lineNumber, std::vector<std::string> &fields,
               CsvError &error) {
  fields.assign(1, std::string());
  auto fail = [&](size_t index, const std::string &message) {
    error.line = lineNumber;
    error.column = index + 1;
    error.message = message;
    fields.clear();
    return false;
  };
  size_t i = 0;
  const size_t n = line.size();
  while (true) {
    std::string &field = fields.back();
    if (i < n && line[i] == '"') {
      const size_t open = i++;
      while (true) {
        if (i >= n) return fail(open, "a quoted field is not closed");
        if (line[i] == '"') {
          if (i + 1 < n && line[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += line[i++];
      }
      if (i < n && line[i] != ',')
        return fail(i, "expected ',' or the end of the line after a closing quote");
    } else {
      while (i < n && line[i] != ',') {
        if (line[i] == '"') return fail(i, "a quote inside a field that does not start with one");
        field += line[i++];
      }
    }
    if (i >= n) return true;
    i++; // the ','
    fields.emplace_back();
  }
}

std::vector<CsvLine> readLines(const std::string &text) {
  std::vector<CsvLine> out;
  size_t start = 0, number = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    number++;
    std::string line = text.substr(start, end - start);
    start = end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    CsvLine l;
    l.number = number;
    l.ok = splitLine(line, number, l.fields, l.error);
    l.text = std::move(line);
    out.push_back(std::move(l));
  }
  return out;
}

bool startsWith(const std::vector<std::string> &fields, const std::vector<std::string> &names) {
  if (fields.size() < names.size()) return false;
  for (size_t i = 0; i < names.size(); i++)
    if (fields[i] != names[i]) return false;
  return true;
}

std::string quote(const std::string &field) {
  if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
  std::string q = "\"";
  for (char c : field) {
    if (c == '"') q += '"';
    q += c == '\n' || c == '\r' ? ' ' : c;
  }
  return q + "\"";
}

} // namespace cz::csv
