# frozen_string_literal: true
#
# Records the HTTP requests the fastlane Zealot plugin sends, byte for byte, so Hangar's tests can
# replay what the plugin really sends. The plugin's own code runs UNMODIFIED, loaded
# from the checkout given on the command line; only what fastlane itself would provide is stubbed
# here: FastlaneCore::UI, Fastlane::Action, FastlaneCore::ConfigItem and the option resolution of
# FastlaneCore::Configuration — including ConfigItem#auto_convert_value, which turns a String into
# `value.split(',')` for an option of `type: Array` (that is how the plugin's `custom_fields`
# default `'[]'` becomes `["[]"]`). A local HTTP recorder stands in for Zealot.
#
#   ruby tools/fastlane-wire-forms/record.rb <fastlane-plugin-zealot checkout> <output dir>
#
# See README.md beside this file.

require 'json'
require 'socket'
require 'tmpdir'
require 'fileutils'

plugin_dir, out_dir = ARGV
abort 'usage: record.rb <fastlane-plugin-zealot checkout> <output dir>' unless plugin_dir && out_dir
plugin_lib = File.join(File.expand_path(plugin_dir), 'lib')
abort "no plugin at #{plugin_lib}" unless File.file?(File.join(plugin_lib, 'fastlane/plugin/zealot.rb'))

# Placeholders the test substitutes: the token, the channel key and the file's bytes.
TOKEN = '@@HANGAR_TOKEN@@'
CHANNEL_KEY = '@@HANGAR_CHANNEL_KEY@@'
FILE_BYTES = '@@HANGAR_FILE_BYTES@@'
# What tests/fixtures/apps/android.apk is (the package the tests upload in place of FILE_BYTES).
BUNDLE_ID = 'com.icyleaf.appinfodemo'
RELEASE_VERSION = '1.2.3'
BUILD_VERSION = '5'
GIT_COMMIT = '0123456789abcdef0123456789abcdef01234567'

# ---- what fastlane provides (stubs, reproducing its behaviour where the plugin depends on it) ----

stub_dir = Dir.mktmpdir('fastlane-stubs')
{
  'fastlane/action.rb' => '', 'fastlane_core/ui/ui.rb' => '', 'fastlane/plugin/debug_file.rb' => ''
}.each do |file, body|
  path = File.join(stub_dir, file)
  FileUtils.mkdir_p(File.dirname(path))
  File.write(path, body)
end
$LOAD_PATH.unshift(stub_dir, plugin_lib)

class String
  # fastlane's `colored` gem, used for table titles.
  def green = self
end

module FastlaneCore
  module UI
    class << self
      def user_error!(message) = raise("user_error!: #{message}")
      %i[success message verbose important error header].each { |name| define_method(name) { |*_| nil } }
    end
  end

  class ConfigItem
    attr_reader :key, :env_name, :default_value, :data_type, :verify_block

    def initialize(key:, env_name: nil, description: nil, default_value: nil, type: nil, optional: nil,
                   verify_block: nil, sensitive: nil, **_rest)
      @key = key
      @env_name = env_name
      @default_value = default_value
      @data_type = type
      @verify_block = verify_block
    end

    # fastlane_core's ConfigItem#auto_convert_value, in its behaviour for the types the plugin uses.
    def auto_convert_value(value)
      return nil if value.nil?

      if data_type == Array
        return value.split(',') if value.is_a?(String)
      elsif data_type == Integer
        return value.to_i if value.to_i.to_s == value.to_s
      elsif data_type == Float
        return value.to_f if value.to_f.to_s == value.to_s
      elsif %w[YES yes true TRUE].include?(value)
        return true
      elsif %w[NO no false FALSE].include?(value)
        return false
      end
      value
    end
  end

  # FastlaneCore::Configuration#fetch: the given value, else ENV[env_name], else the default;
  # then always auto_convert_value.
  class Configuration
    def initialize(items, values)
      @items = items.to_h { |item| [item.key, item] }
      @values = values
    end

    def all_keys = @items.keys

    def fetch(key, ask: true)
      item = @items.fetch(key) { raise "unknown option #{key}" }
      value = @values[key]
      value = ENV[item.env_name].dup if value.nil? && item.env_name && ENV.key?(item.env_name)
      value = item.default_value if value.nil?
      value = item.auto_convert_value(value)
      item.verify_block&.call(value) unless value.nil?
      value
    end

    def [](key) = fetch(key)
  end
end

module Fastlane
  UI = FastlaneCore::UI
  Boolean = Object

  class Action; end

  module Actions
    module SharedValues
      IPA_OUTPUT_PATH = :IPA_OUTPUT_PATH
      GRADLE_APK_OUTPUT_PATH = :GRADLE_APK_OUTPUT_PATH
      XCODEBUILD_ARCHIVE = :XCODEBUILD_ARCHIVE
    end

    # Referenced by the debug-file action's options (fastlane-plugin-debug_file); a zip file is
    # given here, so neither runs.
    class DsymAction
      ARCHIVE_PATH = nil
    end

    class ProguardAction
      RELEASE_TYPE = 'release'
    end

    def self.lane_context = (@lane_context ||= {})
  end
end

# The actions recorded, as the plugin's entry file would load them (its device-sync action needs
# fastlane's credentials manager and Spaceship, and sends nothing recorded here).
require 'fastlane/plugin/zealot/version'
%w[zealot_action zealot_version_check zealot_debug_file].each { |action| require "fastlane/plugin/zealot/actions/#{action}" }
require 'terminal-table'
# fastlane itself depends on and loads faraday; the plugin uses Faraday::UploadIO before it requires it.
require 'faraday'
require 'faraday_middleware'

# ---- the recorder standing in for Zealot ----

class Recorder
  attr_reader :port, :requests

  def initialize
    @server = TCPServer.new('127.0.0.1', 0)
    @port = @server.addr[1]
    @requests = []
    @thread = Thread.new { loop { serve(@server.accept) } }
  end

  def serve(socket)
    request_line = socket.gets("\r\n").chomp
    headers = {}
    while (line = socket.gets("\r\n")) && line != "\r\n"
      name, value = line.chomp.split(': ', 2)
      headers[name.downcase] = value
    end
    body = socket.read(headers.fetch('content-length', '0').to_i) || ''
    method, target = request_line.split(' ')
    path, query = target.split('?', 2)
    @requests << { method: method, path: path, query: query, content_type: headers['content-type'], body: body.b }
    answer = { id: 1, app: { id: 1 }, release_url: 'x', install_url: 'x', qrcode_url: 'x' }.to_json
    status = method == 'GET' ? '200 OK' : '201 Created'
    socket.write("HTTP/1.1 #{status}\r\nContent-Type: application/json\r\nContent-Length: #{answer.bytesize}\r\nConnection: close\r\n\r\n#{answer}")
  ensure
    socket.close
  end
end

recorder = Recorder.new
endpoint = "http://127.0.0.1:#{recorder.port}"
work = Dir.mktmpdir('fastlane-wire-forms')
files = {
  'app.apk' => FILE_BYTES, 'app.dSYM.zip' => FILE_BYTES, 'mapping.zip' => FILE_BYTES
}.to_h { |name, bytes| [name, File.join(work, name).tap { |path| File.write(path, bytes) }] }

def run(action, values)
  config = FastlaneCore::Configuration.new(action.available_options, values)
  action.run(config)
end

base = { endpoint: endpoint, token: TOKEN, channel_key: CHANNEL_KEY }
# CI variables the plugin reads for its defaults would make the recording depend on where it runs.
%w[CI_CHANGELOG GIT_BRANCH CI_COMMIT_REF_NAME CI_BUILD_REF_NAME GIT_COMMIT CI_COMMIT_SHA CI_BUILD_REF BUILD_URL
   CI_JOB_URL CI_PROJECT_URL JENKINS_URL JENKINS_HOME GITLAB_CI].each { |name| ENV.delete(name) }
ENV.keys.grep(/\AZEALOT_|\ADF_DSYM_/).each { |name| ENV.delete(name) }

cases = {
  'upload-defaults' => -> { run(Fastlane::Actions::ZealotAction, base.merge(file: files['app.apk'])) },
  'upload-every-option' => lambda {
    run(Fastlane::Actions::ZealotAction, base.merge(
      file: files['app.apk'], name: 'Fastlane Demo', changelog: "- Fixed the crash\n- Added dark mode",
      release_type: 'beta', slug: 'demo-slug', branch: 'origin/feature/wire', password: 'open-sesame',
      git_commit: GIT_COMMIT,
      # A Fastfile's Array of Hashes passes through auto_convert_value untouched (a String would be split on commas).
      custom_fields: [{ name: 'env', value: 'qa', icon: 'fa-solid fa-flask' }],
      source: 'jenkins-job', ci_url: 'https://ci.example/job/42'
    ))
  },
  'upload-custom-fields-env' => lambda do
    ENV['ZEALOT_CUSTOM_FIELDS'] = 'a,b'
    run(Fastlane::Actions::ZealotAction, base.merge(file: files['app.apk']))
  ensure
    ENV.delete('ZEALOT_CUSTOM_FIELDS')
  end,
  'version-exist' => lambda {
    run(Fastlane::Actions::ZealotVersionCheckAction, base.merge(bundle_id: BUNDLE_ID, release_version: RELEASE_VERSION, build_version: BUILD_VERSION))
  },
  'version-exist-git-commit' => lambda {
    run(Fastlane::Actions::ZealotVersionCheckAction, base.merge(bundle_id: BUNDLE_ID, git_commit: GIT_COMMIT))
  },
  'debug-file-dsym' => -> { run(Fastlane::Actions::ZealotDebugFileAction, base.merge(zip_file: files['app.dSYM.zip'])) },
  'debug-file-proguard' => lambda {
    run(Fastlane::Actions::ZealotDebugFileAction, base.merge(zip_file: files['mapping.zip'], release_version: RELEASE_VERSION, build_version: BUILD_VERSION))
  }
}

FileUtils.mkdir_p(out_dir)
$stdout = File.open(File::NULL, 'w') # the plugin prints summary tables
cases.each do |name, call|
  before = recorder.requests.size
  call.call
  sent = recorder.requests[before..]
  raise "#{name}: #{sent.size} requests recorded, expected 1" unless sent.size == 1

  request = sent.first
  File.binwrite(File.join(out_dir, "#{name}.body"), request[:body])
  File.write(File.join(out_dir, "#{name}.json"), JSON.pretty_generate(request.except(:body).merge(body_file: "#{name}.body")) + "\n")
end
$stdout = STDOUT
puts "recorded #{cases.size} requests into #{out_dir}"
