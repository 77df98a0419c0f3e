// The four roles as the Annotate page (annotationpage.h) words and colours them: their letters, titles and TRIAGE
// definitions for the role chips, the transcript and the card, and each role's fixed colour.
#include "ui/annotate/annotationpage.h"

#include "ui/charts/colours.h"
#include "ui/common/textutil.h"

#include <string>

namespace creditlab::ui {

QString roleText(Role role) { return toQString(std::string(roleName(role))); }

QColor roleColour(Role role) { return colours::role(roleName(role).front()); }

QString roleTitle(Role role)
{
    switch (role) {
    case Role::D:
        return AnnotationPage::tr("decisive progress");
    case Role::E:
        return AnnotationPage::tr("useful exploration");
    case Role::N:
        return AnnotationPage::tr("no-progress infrastructure");
    case Role::R:
        return AnnotationPage::tr("regression");
    }
    return {};
}

QString roleDefinition(Role role)
{
    switch (role) {
    case Role::D:
        return AnnotationPage::tr("Changes the task state a verifier checks: takes the target object, selects the "
                                  "required item, does the required clean/heat/cool, places the target, submits the "
                                  "right answer.");
    case Role::E:
        return AnnotationPage::tr("Changes what the agent knows without completing a subgoal: a first look into a "
                                  "container, a first visit to a candidate place, a first or refined search.");
    case Role::N:
        return AnnotationPage::tr("Changes neither the task state nor what the agent knows: empty-handed travel, a "
                                  "command that does not affect the next decision, a harmless repeat after success.");
    case Role::R:
        return AnnotationPage::tr("Locally harmful, or redundant without new information: a wrong object, edit or "
                                  "purchase; looking again at what is already known.");
    }
    return {};
}

} // namespace creditlab::ui
