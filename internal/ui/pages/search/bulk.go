package search

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// bulkJob is a running or finished bulk load of a local NDJSON file.
type bulkJob struct {
	path, index string
	size        int64
	progress    search.BulkProgress
	result      *search.BulkResult
	err         string
	running     bool
	visible     bool
	cancel      context.CancelFunc
	updates     chan tea.Msg
}

// bulkMsg carries progress (done=false) or the end of a load, addressed to the pane.
type bulkMsg struct {
	id       int64
	job      *bulkJob
	progress search.BulkProgress
	done     bool
	result   search.BulkResult
	err      error
}

func (m bulkMsg) Target() int64 { return m.id }

// validateNDJSONPath accepts an existing regular file.
func validateNDJSONPath(path string) error {
	path = strings.TrimSpace(path)
	if path == "" {
		return errors.New("enter the path of a local NDJSON file")
	}
	fi, err := os.Stat(path)
	if err != nil {
		return errors.New("no such file: " + path)
	}
	if fi.IsDir() {
		return errors.New(path + " is a directory, not a file")
	}
	return nil
}

func validateIndexName(s string) error {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return errors.New("enter the target index")
	case s != strings.ToLower(s):
		return errors.New("index names are lowercase")
	case strings.ContainsAny(s, ` "*\<|,>/?`) || strings.HasPrefix(s, "_") || strings.HasPrefix(s, "-"):
		return errors.New("index names may not contain spaces or \" * \\ < | , > / ? nor start with _ or -")
	}
	return nil
}

// openBulkForm asks for the file and the index (prefilled from the palette's bulk
// command or the selected index).
func (p *Pane) openBulkForm(path, index string) tea.Cmd {
	if p.ctx.ReadOnly {
		return common.Warn("Read-only mode: bulk load is disabled")
	}
	if p.bulk != nil && p.bulk.running {
		return common.Warn("A bulk load is already running (esc cancels it)")
	}
	if index == "" {
		index = p.indices.SelectedKey()
	}
	id := p.req.ID
	pathField := huh.NewInput().Title("NDJSON file").Description("one document per line, or _bulk action/document pairs").Value(&path).Validate(validateNDJSONPath)
	indexField := huh.NewInput().Title("Target index").Value(&index).Validate(validateIndexName)
	form := components.NewForm(p.ctx, "Bulk load into "+p.conn.service, func() tea.Cmd {
		return common.Send(startBulk{id: id, path: strings.TrimSpace(path), index: strings.TrimSpace(index)})
	}, huh.NewGroup(pathField, indexField)).
		Live(pathField, func() error { return validateNDJSONPath(path) }).
		Live(indexField, func() error { return validateIndexName(index) })
	return common.Send(common.OpenModal{Modal: form})
}

// startBulk streams the file in a goroutine; progress reaches the UI through a channel
// read by a re-armed command (the latest progress wins when the UI is slower).
func (p *Pane) startBulk(path, index string) tea.Cmd {
	if err := validateNDJSONPath(path); err != nil {
		return common.Error(err.Error())
	}
	f, err := os.Open(path)
	if err != nil {
		return common.Error("Cannot open " + path + ": " + err.Error())
	}
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	ctx, cancel := context.WithCancel(context.Background())
	job := &bulkJob{path: path, index: index, size: size, running: true, visible: true, cancel: cancel,
		updates: make(chan tea.Msg, 1)}
	p.bulk = job
	id, c := p.req.ID, p.conn.client
	go func() {
		defer f.Close()
		res, err := search.BulkLoad(ctx, c, index, f, search.BulkOptions{}, func(pr search.BulkProgress) {
			msg := bulkMsg{id: id, job: job, progress: pr}
			select {
			case job.updates <- msg:
			default: // the UI has not read the previous one: replace it
				select {
				case <-job.updates:
				default:
				}
				select {
				case job.updates <- msg:
				default:
				}
			}
		})
		cancel()
		// The final message must not be dropped: drain any pending progress first.
		select {
		case <-job.updates:
		default:
		}
		job.updates <- bulkMsg{id: id, job: job, done: true, result: res, err: err}
	}()
	return tea.Batch(waitBulk(job), common.Info("Bulk loading "+path+" into "+index+"… (esc cancels)"))
}

func waitBulk(job *bulkJob) tea.Cmd {
	return func() tea.Msg { return <-job.updates }
}

func (p *Pane) handleBulk(m bulkMsg) tea.Cmd {
	job := m.job
	if p.bulk != job {
		return nil
	}
	if !m.done {
		job.progress = m.progress
		return waitBulk(job)
	}
	job.running = false
	job.result = &m.result
	job.progress = search.BulkProgress{BytesRead: m.result.BytesRead, DocsSent: m.result.Docs, DocsFailed: m.result.Failed, Batches: m.result.Batches}
	var note tea.Cmd
	switch {
	case errors.Is(m.err, context.Canceled):
		job.err = "Cancelled after " + strconv.Itoa(m.result.Succeeded) + " documents."
		note = common.Warn("Bulk load cancelled")
	case m.err != nil:
		job.err = errorSentence(m.err)
		note = common.Error("Bulk load stopped: " + job.err)
	case m.result.Failed > 0:
		note = common.Warn("Bulk load finished: " + strconv.Itoa(m.result.Succeeded) + " indexed, " + strconv.Itoa(m.result.Failed) + " failed")
	default:
		note = common.Success("Bulk load finished: " + strconv.Itoa(m.result.Succeeded) + " documents indexed into " + job.index)
	}
	return tea.Batch(note, p.loadOverview())
}

func (j *bulkJob) view(ctx *common.Context, w int) string {
	st := ctx.Styles
	lines := []string{st.Title.Render("Bulk load") + " " + j.path + " → " + j.index}
	done := float64(j.progress.BytesRead)
	total := float64(j.size)
	if j.result != nil && j.err == "" {
		done = total
	}
	lines = append(lines, components.Gauge(ctx, done, total, min(60, w)))
	lines = append(lines, strconv.Itoa(j.progress.DocsSent)+" documents sent · "+strconv.Itoa(j.progress.DocsFailed)+" failed · "+strconv.Itoa(j.progress.Batches)+" batches")
	switch {
	case j.running:
		lines = append(lines, st.Muted.Render("esc cancels"))
	case j.err != "":
		lines = append(lines, st.Danger.Render(j.err))
	case j.result != nil:
		lines = append(lines, st.OK.Render("Done: "+strconv.Itoa(j.result.Succeeded)+" indexed, "+strconv.Itoa(j.result.Failed)+" failed in "+j.result.Elapsed.Round(1e6).String()))
	}
	if j.result != nil {
		for i, f := range j.result.Failures {
			if i == 5 {
				lines = append(lines, st.Muted.Render("…"))
				break
			}
			lines = append(lines, st.Danger.Render("line "+strconv.Itoa(f.Line)+": "+f.Type+": "+f.Reason))
		}
		lines = append(lines, st.Muted.Render("tab moves on; the panel closes with the next run"))
	}
	return strings.Join(lines, "\n")
}
