import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { RootLayout } from './layout/RootLayout';
import { AdminConfinement } from './layout/RouteGuards';

// Every page is its own chunk: the initial bundle holds only the shell (layout, session, API client).
const HomePage = lazy(() => import('./pages/HomePage'));
const NotFoundPage = lazy(() => import('./pages/NotFoundPage'));
const SignInPage = lazy(() => import('./accounts/SignInPage'));
const SignUpPage = lazy(() => import('./accounts/SignUpPage'));
const VerifyRegistrationPage = lazy(() => import('./accounts/VerifyRegistrationPage'));
const VerifyCodePage = lazy(() => import('./accounts/VerifyCodePage'));
const ResetPasswordPage = lazy(() => import('./accounts/ResetPasswordPage'));
const ProfilePage = lazy(() => import('./accounts/profile/ProfilePage'));
const PublicProfilePage = lazy(() => import('./accounts/PublicProfilePage'));
const AdminDashboardPage = lazy(() => import('./admin/AdminDashboardPage'));
const AdoptionPage = lazy(() => import('./adoption/AdoptionPage'));
const CreateAdoptionPage = lazy(() => import('./adoption/CreateAdoptionPage'));
const MyAdoptionsPage = lazy(() => import('./adoption/MyAdoptionsPage'));
const AdoptionHistoryPage = lazy(() => import('./adoption/AdoptionHistoryPage'));
const PostsPage = lazy(() => import('./community/PostsPage'));
const PostPage = lazy(() => import('./community/PostPage'));
const CreatePostPage = lazy(() => import('./community/CreatePostPage'));
const MyPostsPage = lazy(() => import('./community/MyPostsPage'));
const ChatPage = lazy(() => import('./chat/ChatPage'));
const MessagesPage = lazy(() => import('./chat/MessagesPage'));
const NotificationsPage = lazy(() => import('./notifications/NotificationsPage'));
const ContactPage = lazy(() => import('./contact/ContactPage'));
const ClinicsPage = lazy(() => import('./directory/ClinicsPage'));
const NgoPage = lazy(() => import('./directory/NgoPage'));
const FaqPage = lazy(() => import('./directory/FaqPage'));
const TeamPage = lazy(() => import('./team/TeamPage'));

/** The route table of the whole app: every page and its path. */
export function App() {
  return (
    <Routes>
      <Route element={<AdminConfinement />}>
        {/* Administrators only, without the community header and footer. */}
        <Route path="/admin-dashboard/*" element={<AdminDashboardPage />} />

        <Route element={<RootLayout />}>
          <Route index element={<HomePage />} />

          {/* Landing, directories and help */}
          <Route path="contactus" element={<ContactPage />} />
          <Route path="clinics" element={<ClinicsPage />} />
          <Route path="ngo" element={<NgoPage />} />
          <Route path="faq" element={<FaqPage />} />
          <Route path="team" element={<TeamPage />} />

          {/* Community posts */}
          <Route path="posts" element={<PostsPage />} />
          <Route path="posts/:id" element={<PostPage />} />
          <Route path="createpost" element={<CreatePostPage />} />
          <Route path="my-posts" element={<MyPostsPage />} />

          {/* Adoption */}
          <Route path="adoption" element={<AdoptionPage />} />
          <Route path="create-adoption" element={<CreateAdoptionPage />} />
          <Route path="my-adoptions" element={<MyAdoptionsPage />} />
          <Route path="adoptionhistory" element={<AdoptionHistoryPage />} />

          {/* Accounts */}
          <Route path="signin" element={<SignInPage />} />
          <Route path="login" element={<Navigate to="/signin" replace />} />
          <Route path="signup" element={<SignUpPage />} />
          <Route path="verify-registration" element={<VerifyRegistrationPage />} />
          <Route path="verify-code" element={<VerifyCodePage />} />
          <Route path="reset-password" element={<ResetPasswordPage />} />
          <Route path="profile" element={<ProfilePage />} />
          <Route path="profile/public/:userId" element={<PublicProfilePage />} />

          {/* Chat and notifications */}
          <Route path="notifications" element={<NotificationsPage />} />
          <Route path="chat" element={<ChatPage />} />
          <Route path="chat/:recipientId" element={<ChatPage />} />
          <Route path="messages" element={<MessagesPage />} />

          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
