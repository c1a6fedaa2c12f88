#include "base/output_files.h"

#include "base/atomic_write.h"
#include "base/error.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <regex>
#include <stdexcept>
#include <utility>

namespace perfgate {
namespace {

namespace fs = std::filesystem;

// Where `path` is as the file system resolves it (links in the existing part followed), absolute; for comparing
// paths that do not exist yet.
std::string resolved(const std::string& path) {
  std::error_code error;
  auto at = fs::weakly_canonical(fs::absolute(path, error), error);
  if (error) at = fs::absolute(path).lexically_normal();
  return at.string();
}

// One file by device and inode when both exist, else one resolved path.
bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  const bool a_exists = stat(a.c_str(), &sa) == 0, b_exists = stat(b.c_str(), &sb) == 0;
  if (a_exists && b_exists) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  return resolved(a) == resolved(b);
}

bool is_marker(const fs::directory_entry& entry) {
  static const std::regex name("\\.perfgate-[a-z]+");
  std::error_code error;
  return std::regex_match(entry.path().filename().string(), name) &&
         entry.symlink_status(error).type() == fs::file_type::regular;
}

// `inner`, lexically, below `outer` (both as given, normalized): its path relative to `outer`, or empty.
fs::path below(const std::string& outer, const std::string& inner) {
  const auto o = fs::absolute(outer).lexically_normal(), i = fs::absolute(inner).lexically_normal();
  const auto relative = i.lexically_relative(o);
  if (relative.empty() || relative == "." || *relative.begin() == "..") return {};
  return relative;
}

}  // namespace

std::string output_marker_name(const std::string& command) { return ".perfgate-" + command; }

Outputs::Outputs(std::string command) : command_(std::move(command)) {}

void Outputs::read(const std::string& path) {
  if (!path.empty()) inputs_.push_back({path, false});
}

void Outputs::read(const std::vector<std::string>& paths) {
  for (const auto& path : paths) read(path);
}

void Outputs::require_not_an_input(const std::string& path, const std::string& option) const {
  for (const auto& input : inputs_) {
    if (input.replaced_in_place) continue;
    if (same_file(path, input.path)) {
      throw InputError(command_ + ": " + option + " '" + path + "' is the input '" + input.path +
                       "': give the output another file");
    }
  }
}

void Outputs::file(const std::string& path, const std::string& option) {
  if (path.empty()) throw InputError(command_ + ": " + option + " is empty");
  const auto target = write_target_of(path);  // a link leading nowhere is refused here
  require_replaceable(path);
  require_not_an_input(target, option);
  const auto folder = nearest_existing_folder(resolved(target));
  if (access(folder.c_str(), W_OK) != 0) {
    throw InputError(command_ + ": cannot write " + option + " '" + path + "' (its folder '" + folder +
                     "' is not writable)");
  }
  for (const auto& other : outputs_) {
    if (!other.folder && same_file(other.resolved, target)) {
      throw InputError(command_ + ": " + option + " '" + path + "' is also " + other.option + " '" + other.path + "'");
    }
  }
  outputs_.push_back({path, option, resolved(target), false, false});
}

void Outputs::in_place(const std::string& path, const std::string& option) {
  file(path, option);
  inputs_.push_back({path, true});
}

void Outputs::companion(const std::string& path, const std::string& what) {
  std::error_code error;
  if (fs::is_symlink(fs::symlink_status(path, error))) {
    for (const auto& other : outputs_) {
      if (!other.folder && other.path == path)
        throw InputError(command_ + ": " + what + " '" + path + "' is also " + other.option);
    }
    outputs_.push_back({path, what, resolved(path), false, true});
    return;
  }
  file(path, what);
  outputs_.back().companion = true;
}

void Outputs::folder(const std::string& path, const std::string& option) {
  if (path.empty()) throw InputError(command_ + ": " + option + " is empty");
  std::error_code error;
  const auto status = fs::symlink_status(path, error);
  if (fs::is_symlink(status)) {
    throw InputError(command_ + ": " + option + " '" + path + "' is a symbolic link; perfgate fills real folders only");
  }
  if (fs::exists(status) && !fs::is_directory(status)) {
    throw InputError(command_ + ": " + option + " '" + path + "' exists and is not a folder");
  }
  if (fs::is_directory(status)) {
    bool empty = true, ours = false;
    for (const auto& entry : fs::directory_iterator(path, error)) {
      // A file another perfgate process is staging there right now (the marker, as two gates start at once) is
      // perfgate's, not the user's.
      static const std::regex staging("\\..+\\.perfgate-[A-Za-z0-9]{6}");
      if (std::regex_match(entry.path().filename().string(), staging)) continue;
      empty = false;
      ours = ours || is_marker(entry);
    }
    if (error) throw InputError(command_ + ": cannot read " + option + " '" + path + "' (" + error.message() + ")");
    if (!empty && !ours) {
      throw InputError(command_ + ": " + option + " '" + path + "' holds files perfgate did not write (no " +
                       output_marker_name(command_) +
                       " marker); give a new or empty folder, or one perfgate filled before");
    }
  }
  require_not_an_input(path, option);
  const auto at = resolved(path);
  for (const auto& other : outputs_) {
    const bool nested = other.folder && (!below(at, other.resolved).empty() || !below(other.resolved, at).empty());
    if (nested || at == other.resolved) {
      throw InputError(command_ + ": " + option + " '" + path + "' holds or lies in " + other.option + " '" +
                       other.path + "'");
    }
  }
  if (access(nearest_existing_folder(at + "/x").c_str(), W_OK) != 0) {
    throw InputError(command_ + ": cannot write " + option + " '" + path + "' (not writable)");
  }
  outputs_.push_back({path, option, at, true, false});
}

const Outputs::Declared* Outputs::owner_of(const std::string& path, bool& inside_folder) const {
  for (const auto& d : outputs_) {
    if (!d.folder && d.path == path) {
      inside_folder = false;
      return &d;
    }
  }
  for (const auto& d : outputs_) {
    if (d.folder && !below(d.path, path).empty()) {
      inside_folder = true;
      return &d;
    }
  }
  throw std::logic_error(command_ + " writes '" + path + "', which it never declared as an output");
}

bool Outputs::marked(const std::string& folder) const {
  std::error_code error;
  return fs::is_regular_file(fs::symlink_status(fs::path(folder) / output_marker_name(command_), error));
}

// Creates (with `create`; else only checks) `folder` and the folders between it and `file` as real folders (a link
// among them is refused, so nothing
// is written elsewhere through it), and marks `folder` as perfgate's before anything else is written into it.
void Outputs::prepare_folder(const Declared& folder, const std::string& file, bool create) const {
  std::error_code error;
  fs::path at = folder.path;
  // The folders above the declared one are the user's path to it, made as any path is; from the declared folder down,
  // every folder is perfgate's and must be real.
  const auto above = fs::absolute(at).parent_path();
  if (create && !fs::exists(above, error)) {
    fs::create_directories(above, error);
    if (error) throw InputError(command_ + ": cannot create '" + above.string() + "' (" + error.message() + ")");
  }
  const auto relative = below(folder.path, file).parent_path();
  std::vector<fs::path> chain = {at};
  for (const auto& part : relative) chain.push_back(at /= part);
  for (const auto& step : chain) {
    const auto status = fs::symlink_status(step, error);
    if (fs::is_symlink(status)) {
      throw InputError(command_ + ": " + folder.option + " '" + folder.path + "': " +
                       (step == fs::path(folder.path) ? std::string("it")
                                                      : "its " + below(folder.path, step.string()).string() + "/") +
                       " is a symbolic link; perfgate writes into real folders only");
    }
    if (!fs::exists(status)) {
      if (!create) return;
      fs::create_directory(step, error);
      if (error) throw InputError(command_ + ": cannot create '" + step.string() + "' (" + error.message() + ")");
    } else if (!fs::is_directory(status)) {
      throw InputError(command_ + ": '" + step.string() + "' in " + folder.option + " is not a folder");
    }
  }
  if (create && !marked(folder.path)) {
    write_file_atomically((fs::path(folder.path) / output_marker_name(command_)).string(),
                          "written by perfgate " + command_ + ": its files in this folder are replaced on every run\n",
                          AtLink::replace);
  }
}

void Outputs::create(const std::string& folder) const {
  for (const auto& d : outputs_) {
    if (d.folder && d.path == folder)
      return prepare_folder(d, (fs::path(folder) / output_marker_name(command_)).string());
  }
  throw std::logic_error(command_ + " creates '" + folder + "', which it never declared as an output folder");
}

void Outputs::write(const std::string& path, const std::string& content) const {
  bool inside_folder = false;
  const Declared* owner = owner_of(path, inside_folder);
  if (!inside_folder) {
    std::error_code error;
    const bool replace_link = owner->companion && fs::is_symlink(fs::symlink_status(path, error));
    if (!replace_link) require_not_an_input(write_target_of(path), owner->option);
    const auto parent = fs::path(replace_link ? path : write_target_of(path)).parent_path();
    if (!parent.empty()) fs::create_directories(parent, error);
    write_file_atomically(path, content, owner->companion ? AtLink::replace : AtLink::follow);
    return;
  }
  prepare_folder(*owner, path);
  std::error_code error;
  // A link here is replaced as a name (nothing it leads to is touched); a hard link to an input is that input.
  if (!fs::is_symlink(fs::symlink_status(path, error))) require_not_an_input(path, "a file in " + owner->option);
  write_file_atomically(path, content, AtLink::replace);
}

void Outputs::remove(const std::string& path) const {
  bool inside_folder = false;
  const Declared* owner = owner_of(path, inside_folder);
  if (!inside_folder || !marked(owner->path)) return;
  prepare_folder(*owner, path, false);  // a link among its folders is refused: nothing is removed elsewhere through it
  std::error_code error;
  if (!fs::is_symlink(fs::symlink_status(path, error))) require_not_an_input(path, "a file in " + owner->option);
  fs::remove(path, error);  // a link is removed itself, never what it points to
}

}  // namespace perfgate
